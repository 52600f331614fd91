import { formatValue, NO_DATA } from '../../charts/units.ts';
import { latestPoint, type LiveSensor } from '../../composables/liveReadings.ts';
import { ageText } from '../sensors/freshnessText.ts';

/** What one sensor's live row reads: its latest value with unit, its age, and where it is from. */
export interface LiveRowText {
  value: string;
  age: string;
  /** Set when the value is not the sensor's own reading, or there is none to show. */
  note: string | null;
}

export const NO_LIVE_VALUES = 'no live values from this server';

const FLOW_WORDS = { PRODUCTION: 'production', CONSUMPTION: 'consumption' } as const;

export const formatLive = (unit: string | null) => (value: number) =>
  formatValue(value, unit ?? '');

export function liveRowText(sensor: LiveSensor, nowMs: number): LiveRowText {
  if (sensor.source === 'none') return { value: NO_DATA, age: '', note: NO_LIVE_VALUES };
  const latest = latestPoint(sensor);
  const note =
    sensor.source === 'flow' && (sensor.flowMeters ?? 1) > 1
      ? `the plant's ${FLOW_WORDS[sensor.flow as keyof typeof FLOW_WORDS] ?? 'flow'}, ${sensor.flowMeters} meters combined`
      : null;
  if (!latest) return { value: NO_DATA, age: 'no reading in the last 15 minutes', note };
  return { value: formatLive(sensor.unit)(latest.value), age: ageText(latest.at, nowMs), note };
}
