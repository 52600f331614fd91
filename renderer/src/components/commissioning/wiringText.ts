import type { Figure, WiringStatus } from '../../../../server/domain/wiring/index.ts';
import { decimalsFor } from '../../charts/units.ts';
import type { Formatters } from '../../../../i18n/format.ts';
import { currentFormatters } from '../../i18n.ts';

/** The wiring checks' words on screen: the status in words (never colour alone), a figure. */

export const STATUS_ICONS: Record<WiringStatus, string> = {
  pass: 'pi pi-check-circle',
  warning: 'pi pi-exclamation-triangle',
  fail: 'pi pi-times-circle',
  notApplicable: 'pi pi-minus-circle',
};

/** "1,234 W" / "1.234 W", "3 min", "—" for an unknown value, in the chosen language's digits. */
export function figureText(figure: Figure, f: Formatters = currentFormatters()): string {
  if (figure.value === null) return '—';
  // Counts (readings, minutes) read as whole numbers, not "3.00 min".
  const digits = Number.isInteger(figure.value) ? 0 : decimalsFor(figure.value);
  const number = f.number(figure.value, digits, digits);
  return figure.unit ? `${number} ${figure.unit}` : number;
}

/** The sign checks whose failure on a sensor is fixed by recording it as inverted. */
export const SIGN_CHECKS: readonly string[] = [
  'productionSign',
  'consumptionSign',
  'gridSign',
  'storageSign',
];
