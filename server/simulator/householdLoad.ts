import { signedNoise, STREAMS, uniform, uniformPart } from './noise.ts';
import { isWeekend, MINUTES_PER_DAY } from './plantClock.ts';
import {
  addBlock,
  firstMinuteOf,
  localDaysTouching,
  minuteFromProfile,
  profilePowerW,
  type LoadDayInput,
} from './loadShapes.ts';

/**
 * The household's base load (lighting, cooking, appliances), shaped by the HOUSEHOLD_BASE load
 * signature: three quarters of the typical daily energy as a smooth, noisy load following the
 * hourly profile, one quarter as short appliance runs (kettle, microwave, cooking, washing)
 * placed at times drawn from the same profile. Busier at weekends; each day a little different.
 */

export interface HouseholdLoad {
  kind: 'household';
  /** 24 shares of a day's energy by local hour, summing to 1. */
  hourlyProfile: readonly number[];
  typicalDailyKwh: number;
}

/** A standby floor no home goes below (fridge, routers, standby). */
const STANDBY_W = 60;
const APPLIANCE_SHARE = 0.25;
const MAX_EVENTS_PER_DAY = 24;

interface ApplianceRun {
  powerW: number;
  minMinutes: number;
  maxMinutes: number;
  /** A low-power tail after the main run (a washing machine's spin, a dishwasher's drying). */
  tail?: { powerW: number; minutes: number };
}

const APPLIANCES: readonly ApplianceRun[] = [
  { powerW: 2000, minMinutes: 3, maxMinutes: 5 }, // kettle
  { powerW: 900, minMinutes: 2, maxMinutes: 7 }, // microwave
  { powerW: 2200, minMinutes: 20, maxMinutes: 45 }, // oven or hob
  { powerW: 2000, minMinutes: 12, maxMinutes: 18, tail: { powerW: 220, minutes: 60 } }, // washer
  { powerW: 1800, minMinutes: 15, maxMinutes: 25, tail: { powerW: 90, minutes: 70 } }, // dishwasher
];

/** Day-to-day variation: quieter and busier days, busier weekends. */
export function householdDayFactor(seed: number, localDay: number): number {
  return (
    0.85 + 0.3 * uniform(seed, STREAMS.baseLoadDay, localDay) + (isWeekend(localDay) ? 0.1 : 0)
  );
}

export function householdDay(load: HouseholdLoad, input: LoadDayInput): Float64Array {
  const { seed, dayIndex, clock } = input;
  const watts = new Float64Array(MINUTES_PER_DAY);
  const firstMinute = firstMinuteOf(dayIndex);
  const continuousShare = 1 - APPLIANCE_SHARE;
  for (let index = 0; index < MINUTES_PER_DAY; index++) {
    const minute = firstMinute + index;
    const ms = minute * 60_000;
    const localDay = clock.localDay(ms);
    const meanW =
      profilePowerW(load.hourlyProfile, load.typicalDailyKwh, clock.localHour(ms)) *
      continuousShare *
      householdDayFactor(seed, localDay);
    const noise =
      1 +
      0.18 * signedNoise(seed, STREAMS.baseLoadSmooth, minute / 11) +
      0.05 * (2 * uniform(seed, STREAMS.baseLoadJitter, minute) - 1);
    watts[index] = Math.max(meanW * noise, STANDBY_W);
  }
  for (const localDay of localDaysTouching(clock, dayIndex)) {
    addApplianceRuns(load, input, localDay, watts);
  }
  return watts;
}

/** Appliance runs of one local day until their energy reaches its share of the day. */
function addApplianceRuns(
  load: HouseholdLoad,
  { seed, dayIndex, clock }: LoadDayInput,
  localDay: number,
  watts: Float64Array,
): void {
  const budgetKwh = load.typicalDailyKwh * APPLIANCE_SHARE * householdDayFactor(seed, localDay);
  let usedKwh = 0;
  for (let event = 0; event < MAX_EVENTS_PER_DAY && usedKwh < budgetKwh; event++) {
    const index = localDay * MAX_EVENTS_PER_DAY + event;
    const draw = (part: number) => uniformPart(seed, STREAMS.baseLoadEvents, index, part);
    const appliance = APPLIANCES[Math.floor(draw(0) * APPLIANCES.length)]!;
    const minutes = Math.round(
      appliance.minMinutes + draw(1) * (appliance.maxMinutes - appliance.minMinutes),
    );
    const startMs = clock.wallClockMs(
      localDay,
      minuteFromProfile(load.hourlyProfile, draw(2), draw(3)),
    );
    addBlock(watts, dayIndex, startMs, minutes, appliance.powerW);
    usedKwh += (appliance.powerW * minutes) / 60_000;
    if (appliance.tail) {
      addBlock(
        watts,
        dayIndex,
        startMs + minutes * 60_000,
        appliance.tail.minutes,
        appliance.tail.powerW,
      );
      usedKwh += (appliance.tail.powerW * appliance.tail.minutes) / 60_000;
    }
  }
}
