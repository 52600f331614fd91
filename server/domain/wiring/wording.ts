import type {
  Figure,
  WiringCheckId,
  WiringCheckResult,
  WiringSensor,
  WiringStatus,
} from './types.ts';
import { WIRING_CHECK_TITLES } from './types.ts';

/** How the checks write numbers: rounded for reading, sign kept. */

const significant = (value: number) => Number(value.toPrecision(Math.abs(value) >= 100 ? 3 : 2));

/** "850 W", "3.4 kW", "1.2 MW", "0.35 W" (a kW reading taken for W). */
export function formatPower(watts: number): string {
  const size = Math.abs(watts);
  if (size >= 1e6) return `${significant(watts / 1e6)} MW`;
  if (size >= 1000) return `${significant(watts / 1000)} kW`;
  if (size >= 1) return `${Math.round(watts)} W`;
  // Below 10 mW is a meter's rounding, not power (and -1.9e-12 W reads badly).
  if (size < 0.01) return '0 W';
  return `${Number(watts.toPrecision(2))} W`;
}

/** "1,200 W import" / "800 W export" for a grid power (import positive). */
export const gridWords = (watts: number): string =>
  watts >= 0 ? `${formatPower(watts)} import` : `${formatPower(-watts)} export`;

/** "420 W discharge" / "1.5 kW charge" for a battery power (discharge positive). */
export const storageWords = (watts: number): string =>
  watts >= 0 ? `${formatPower(watts)} discharge` : `${formatPower(-watts)} charge`;

/** A figure in W, rounded to the watt (to 3 decimals below 10 W, where kW readings land). */
export function watts(name: string, value: number | null): Figure {
  if (value === null) return { name, value, unit: 'W' };
  return { name, value: Math.abs(value) < 10 ? round(value, 3) : Math.round(value), unit: 'W' };
}

export const figure = (name: string, value: number | null, unit: string, digits = 2): Figure => ({
  name,
  value: value === null ? null : round(value, digits),
  unit,
});

const round = (value: number, digits: number) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale + 0; // + 0: no -0 in reports
};

export const quoted = (name: string): string => `“${name}”`;

export function result(
  id: WiringCheckId,
  status: WiringStatus,
  subject: WiringSensor | { uuid: string; name: string } | null,
  figures: Figure[],
  finding: string,
  action = '',
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

/** What to do about a reversed meter: record it, do not rewire (issue 14). */
export function recordInversion(sensor: WiringSensor): string {
  return sensor.signInverted
    ? `Clear the “Sign inverted” setting of ${quoted(sensor.name)}: it is on and the readings come out reversed.`
    : `Turn on the “Sign inverted” setting of ${quoted(sensor.name)} (the server then negates its readings), or turn its current transformer around.`;
}
