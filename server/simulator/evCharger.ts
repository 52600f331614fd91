import { STREAMS, uniformPart } from './noise.ts';
import { isWeekend, MINUTES_PER_DAY } from './plantClock.ts';
import { addBlock, localDaysTouching, type LoadDayInput } from './loadShapes.ts';

/**
 * A wallbox. On some evenings (more often on weekdays) the car comes home between 17:00 and
 * 21:00 needing 6 to 26 kWh and charges at the wallbox's power until it has it, past midnight
 * if need be. Each day's session is drawn from that local day alone.
 */

export interface EvChargerLoad {
  kind: 'ev';
  /** Charging power, W. */
  chargingPowerW: number;
}

export const DEFAULT_EV_CHARGING_POWER_W = 11_000;
const WEEKDAY_SESSION_PROBABILITY = 0.5;
const WEEKEND_SESSION_PROBABILITY = 0.3;
/** The car leaves in the morning, charged or not (matters only for a very weak wallbox). */
const MAX_SESSION_MINUTES = 16 * 60;

export interface ChargingSession {
  startMs: number;
  energyKwh: number;
}

/** The charging session of local day `localDay`, if the car charges that evening. */
export function chargingSession(
  seed: number,
  localDay: number,
  wallClockMs: (localDay: number, minuteOfDay: number) => number,
): ChargingSession | undefined {
  const draw = (part: number) => uniformPart(seed, STREAMS.evSession, localDay, part);
  const probability = isWeekend(localDay)
    ? WEEKEND_SESSION_PROBABILITY
    : WEEKDAY_SESSION_PROBABILITY;
  if (draw(0) >= probability) return undefined;
  const arrivalMinute = 17 * 60 + ((draw(1) + draw(2)) / 2) * 240;
  return {
    startMs: wallClockMs(localDay, arrivalMinute),
    energyKwh: 6 + 20 * ((draw(3) + draw(4)) / 2),
  };
}

export function evChargerDay(load: EvChargerLoad, input: LoadDayInput): Float64Array {
  const { seed, dayIndex, clock } = input;
  const watts = new Float64Array(MINUTES_PER_DAY);
  const power = load.chargingPowerW;
  if (!(power > 0)) return watts;
  for (const localDay of localDaysTouching(clock, dayIndex)) {
    const session = chargingSession(seed, localDay, (day, minute) =>
      clock.wallClockMs(day, minute),
    );
    if (!session) continue;
    const minutes = Math.min((session.energyKwh * 60_000) / power, MAX_SESSION_MINUTES);
    addBlock(watts, dayIndex, session.startMs, minutes, power);
  }
  return watts;
}
