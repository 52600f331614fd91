/**
 * Numbers with their units, for tiles, tooltips and axis ticks.
 *
 * Decimals: three significant digits after scaling — two decimals below 10, one below 100, none
 * from 100 (`4.25 kW`, `42.5 kW`, `425 kW`, `850 W`); zero is written `0`. Power scales W → kW →
 * MW → GW at each 1000; energy kWh → MWh → GWh. `null` (no data) is written `—`.
 * In the language given (English by default: `.` for decimals, `,` grouping; German and Italian
 * write `4,25 kW`, `42,5 %`). CSV exports never come through here (charts/csv.ts).
 */

import { numberFormat } from '../../../i18n/format.ts';
import type { AppLocale } from '../../../i18n/locales.ts';

export const NO_DATA = '—';

const POWER_UNITS = ['W', 'kW', 'MW', 'GW'] as const;
const ENERGY_UNITS = ['kWh', 'MWh', 'GWh', 'TWh'] as const;

/** Decimals for a value already scaled to its unit (see the module comment). */
export function decimalsFor(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0) return 0;
  if (magnitude < 10) return 2;
  if (magnitude < 100) return 1;
  return 0;
}

/** A number with a fixed count of decimals; `-0` (a rounding, not a direction) is written `0`. */
export function formatNumber(
  value: number,
  decimals: number = decimalsFor(value),
  locale: AppLocale = 'en',
): string {
  return numberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    signDisplay: 'negative',
  }).format(value);
}

/** The value scaled by 1000s into the largest unit of `units` that keeps it ≥ 1. */
export function scaleBy1000<U extends string>(
  value: number,
  units: readonly U[],
): { value: number; unit: U } {
  let index = 0;
  let scaled = value;
  while (index < units.length - 1 && Math.abs(scaled) >= 1000) {
    scaled /= 1000;
    index += 1;
  }
  // Rounding may carry to 1000 (999.6 W → "1,000 W"): take the next unit then.
  if (
    index < units.length - 1 &&
    Math.abs(Number(formatNumber(scaled).replace(/,/g, ''))) >= 1000
  ) {
    scaled /= 1000;
    index += 1;
  }
  return { value: scaled, unit: units[index]! };
}

/** `850 W`, `4.25 kW`, `1.20 MW`; `—` for null. */
export function formatPower(watts: number | null | undefined, locale: AppLocale = 'en'): string {
  if (watts === null || watts === undefined || Number.isNaN(watts)) return NO_DATA;
  const { value, unit } = scaleBy1000(watts, POWER_UNITS);
  return `${formatNumber(value, decimalsFor(value), locale)} ${unit}`;
}

/** `0.45 kWh`, `12.3 kWh`, `1.25 MWh`; `—` for null. */
export function formatEnergy(kWh: number | null | undefined, locale: AppLocale = 'en'): string {
  if (kWh === null || kWh === undefined || Number.isNaN(kWh)) return NO_DATA;
  const { value, unit } = scaleBy1000(kWh, ENERGY_UNITS);
  return `${formatNumber(value, decimalsFor(value), locale)} ${unit}`;
}

/**
 * A percentage given as 0..100 (as the API gives them): `42.5%`, in German and Italian
 * `42,5 %`; `—` for null.
 */
export function formatPercent(
  percent: number | null | undefined,
  decimals = 1,
  locale: AppLocale = 'en',
): string {
  if (percent === null || percent === undefined || Number.isNaN(percent)) return NO_DATA;
  return numberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    signDisplay: 'negative',
  }).format(percent / 100);
}

/** A ratio given as 0..1 (coverage, performance ratio) as a percentage: `0.425` → `42.5%`. */
export function formatRatio(
  ratio: number | null | undefined,
  decimals = 1,
  locale: AppLocale = 'en',
): string {
  return formatPercent(
    ratio === null || ratio === undefined ? ratio : ratio * 100,
    decimals,
    locale,
  );
}

/**
 * A value in the unit a series carries: W scales like power, kWh like energy, `%` as a
 * percentage; any other unit keeps its three significant digits and is appended as is.
 */
export function formatValue(
  value: number | null | undefined,
  unit: string,
  locale: AppLocale = 'en',
): string {
  switch (unit) {
    case 'W':
      return formatPower(value, locale);
    case 'kWh':
      return formatEnergy(value, locale);
    case '%':
      return formatPercent(value, 1, locale);
    default: {
      if (value === null || value === undefined || Number.isNaN(value)) return NO_DATA;
      const number = formatNumber(value, decimalsFor(value), locale);
      return unit ? `${number} ${unit}` : number;
    }
  }
}
