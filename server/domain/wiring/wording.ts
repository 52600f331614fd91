import type { HostText, StoredText, TextParam } from '../../../i18n/text.ts';
import type {
  Figure,
  WiringCheckId,
  WiringCheckResult,
  WiringSensor,
  WiringStatus,
} from './types.ts';
import { WIRING_CHECK_TITLES } from './types.ts';

/**
 * How the checks word what they found: message keys (i18n/messages/<lang>/wiring.json) with
 * raw figures, put into words where they are shown (wordsOf, i18n/text.ts), so that the checks
 * stay pure and their findings read in the user's language and number format.
 */

/** A message of the checks with its parameters (and the count choosing its plural form). */
export const say = (
  key: string,
  params?: Record<string, TextParam>,
  plural?: number,
): HostText => ({
  key,
  ...(params && { params }),
  ...(plural !== undefined && { plural }),
});

/** A power, "850 W" / "3,4 kW"; below 10 mW a meter's rounding, not power (-1.9e-12 W reads badly). */
export const power = (watts: number): TextParam => ({
  power: Math.abs(watts) < 0.01 ? 0 : watts,
});

/** A number with at most `digits` decimals (and at least `minDigits`). */
export const number = (value: number, digits = 0, minDigits = 0): TextParam => ({
  number: value,
  digits,
  minDigits,
});

/** "1.2 kW import" / "800 W export" for a grid power (import positive). */
export const gridWords = (watts: number): HostText =>
  watts >= 0
    ? say('wiring.words.import', { power: power(watts) })
    : say('wiring.words.export', { power: power(-watts) });

/** "420 W discharge" / "1.5 kW charge" for a battery power (discharge positive). */
export const storageWords = (watts: number): HostText =>
  watts >= 0
    ? say('wiring.words.discharge', { power: power(watts) })
    : say('wiring.words.charge', { power: power(-watts) });

/** A name in the language's quotation marks. */
export const quoted = (name: string): HostText => say('checks.quoted', { name });

/** Names, quoted, one after the other. */
export const quotedList = (names: readonly string[]): TextParam => ({ list: names.map(quoted) });

/** A figure in W, rounded to the watt (to 3 decimals below 10 W, where kW readings land). */
export function watts(name: StoredText, value: number | null): Figure {
  if (value === null) return { name, value, unit: 'W' };
  return { name, value: Math.abs(value) < 10 ? round(value, 3) : Math.round(value), unit: 'W' };
}

export const figure = (
  name: StoredText,
  value: number | null,
  unit: string,
  digits = 2,
): Figure => ({
  name,
  value: value === null ? null : round(value, digits),
  unit,
});

const round = (value: number, digits: number) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale + 0; // + 0: no -0 in reports
};

export function result(
  id: WiringCheckId,
  status: WiringStatus,
  subject: WiringSensor | { uuid: string; name: string } | null,
  figures: Figure[],
  finding: StoredText,
  action: StoredText = '',
): WiringCheckResult {
  return {
    id,
    title: WIRING_CHECK_TITLES[id],
    status,
    subject:
      subject === null
        ? null
        : 'sensorUuid' in subject
          ? { uuid: subject.sensorUuid, name: subject.name }
          : subject,
    figures,
    finding,
    action,
  };
}

/** "Fix that first": a check deferring to another that found one of its meters wrong. */
export const FIX_FIRST = say('wiring.common.fixFirst');

/** Not judged while these meters are found wrong by another check. */
export const notJudgedWhile = (sensors: readonly WiringSensor[]): HostText =>
  say(
    'wiring.common.notJudged',
    { sensors: quotedList(sensors.map((s) => s.name)) },
    sensors.length,
  );

/** What to do about a reversed meter: record it, do not rewire (issue 14). */
export function recordInversion(sensor: WiringSensor): HostText {
  return sensor.signInverted
    ? say('wiring.inversion.clear', { sensor: quoted(sensor.name) })
    : say('wiring.inversion.turnOn', { sensor: quoted(sensor.name) });
}
