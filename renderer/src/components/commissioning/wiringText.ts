import type { Figure, WiringStatus } from '../../../../server/domain/wiring/index.ts';
import { formatNumber } from '../../charts/units.ts';

/** The wiring checks' words on screen: the status in words (never colour alone), a figure. */

export const STATUS_WORDS: Record<WiringStatus, string> = {
  pass: 'PASS',
  warning: 'WARNING',
  fail: 'FAIL',
  notApplicable: 'NOT CHECKED',
};

export const STATUS_ICONS: Record<WiringStatus, string> = {
  pass: 'pi pi-check-circle',
  warning: 'pi pi-exclamation-triangle',
  fail: 'pi pi-times-circle',
  notApplicable: 'pi pi-minus-circle',
};

/** "1,234 W", "3 min", "—" for an unknown value. */
export function figureText(figure: Figure): string {
  if (figure.value === null) return '—';
  // Counts (readings, minutes) read as whole numbers, not "3.00 min".
  const number = Number.isInteger(figure.value)
    ? formatNumber(figure.value, 0)
    : formatNumber(figure.value);
  return figure.unit ? `${number} ${figure.unit}` : number;
}

/** The sign checks whose failure on a sensor is fixed by recording it as inverted. */
export const SIGN_CHECKS: readonly string[] = [
  'productionSign',
  'consumptionSign',
  'gridSign',
  'storageSign',
];
