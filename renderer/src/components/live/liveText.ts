import { numberFormat, type Formatters } from '../../../../i18n/format.ts';
import type { Translate } from '../../../../i18n/translator.ts';
import { decimalsFor, NO_DATA, scaleBy1000 } from '../../charts/units.ts';
import { ageText } from '../../composables/commissioningChecks.ts';
import { latestPoint, type LiveSensor } from '../../composables/liveReadings.ts';
import { currentFormatters, translate } from '../../i18n.ts';

/**
 * What one sensor's live row reads: its latest value with unit, its age, and where it is from.
 * The words and numbers are the chosen language's; the defaults (the app's language) serve the
 * callers that render them, tests pass a language's translator and formatters.
 */
export interface LiveRowText {
  value: string;
  age: string;
  /** Set when the value is not the sensor's own reading, or there is none to show. */
  note: string | null;
}

const SCALED_UNITS: Readonly<Record<string, readonly string[]>> = {
  W: ['W', 'kW', 'MW', 'GW'],
  kWh: ['kWh', 'MWh', 'GWh', 'TWh'],
};

/**
 * A reading in its unit as the charts write it (W and kWh scaled by 1000s, three significant
 * digits, `%` with one decimal), in the chosen language's digits.
 */
export const formatLive =
  (unit: string | null, f: Formatters = currentFormatters()) =>
  (value: number): string => {
    if (Number.isNaN(value)) return NO_DATA;
    if (unit === '%') {
      const options = { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 };
      return numberFormat(f.locale, options as Intl.NumberFormatOptions).format(value / 100);
    }
    const units = unit ? SCALED_UNITS[unit] : undefined;
    const scaled = units ? scaleBy1000(value, units) : { value, unit: unit ?? '' };
    const decimals = decimalsFor(scaled.value);
    const number = numberFormat(f.locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      // "-0.00" is a meter's rounding, not a direction.
      signDisplay: 'negative',
    }).format(scaled.value);
    return scaled.unit ? `${number} ${scaled.unit}` : number;
  };

/** The note on a sensor showing its flow's combined readings. */
const COMBINED: Partial<Record<LiveSensor['flow'], string>> = {
  PRODUCTION: 'commissioning.live.combined.production',
  CONSUMPTION: 'commissioning.live.combined.consumption',
};

/** "just now", "40 s ago", "3 min ago": a live reading is at most 15 minutes old. */
function liveAge(fromMs: number, nowMs: number, t: Translate): string {
  return nowMs - fromMs < 5_000 ? t('commissioning.live.justNow') : ageText(fromMs, nowMs, t);
}

export function liveRowText(
  sensor: LiveSensor,
  nowMs: number,
  t: Translate = translate,
  f: Formatters = currentFormatters(),
): LiveRowText {
  if (sensor.source === 'none') {
    return { value: NO_DATA, age: '', note: t('commissioning.live.noValues') };
  }
  const latest = latestPoint(sensor);
  const note =
    sensor.source === 'flow' && (sensor.flowMeters ?? 1) > 1
      ? t(COMBINED[sensor.flow] ?? 'commissioning.live.combined.other', {}, sensor.flowMeters)
      : null;
  if (!latest) return { value: NO_DATA, age: t('commissioning.live.noReading'), note };
  return {
    value: formatLive(sensor.unit, f)(latest.value),
    age: liveAge(latest.at, nowMs, t),
    note,
  };
}
