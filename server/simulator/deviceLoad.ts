import { signedNoise, STREAMS, uniform } from './noise.ts';
import { MINUTES_PER_DAY } from './plantClock.ts';
import { dutyCycledPowerW, firstMinuteOf, profilePowerW, type LoadDayInput } from './loadShapes.ts';

/**
 * Any other consumer device. With a load signature it follows the signature's hourly profile
 * and typical daily energy; when its rated power is known and above that average, it runs at
 * its rating for part of each quarter hour (a boiler's thermostat), otherwise continuously with
 * some noise. Without a signature it is a small appliance cycling like a fridge.
 */

export interface ProfileLoad {
  kind: 'profile';
  hourlyProfile: readonly number[];
  typicalDailyKwh: number;
  ratedPowerW: number | null;
}

export interface ApplianceLoad {
  kind: 'appliance';
  ratedPowerW: number | null;
}

const PROFILE_WINDOW_MINUTES = 15;
const APPLIANCE_WINDOW_MINUTES = 40;
const APPLIANCE_DUTY = 0.35;
export const DEFAULT_APPLIANCE_POWER_W = 150;

export function profileLoadDay(load: ProfileLoad, input: LoadDayInput): Float64Array {
  const { seed, dayIndex, clock } = input;
  const watts = new Float64Array(MINUTES_PER_DAY);
  const firstMinute = firstMinuteOf(dayIndex);
  for (let index = 0; index < MINUTES_PER_DAY; index++) {
    const minute = firstMinute + index;
    const ms = minute * 60_000;
    const dayFactor = 0.8 + 0.4 * uniform(seed, STREAMS.profileLoadSmooth, clock.localDay(ms));
    const meanW =
      profilePowerW(load.hourlyProfile, load.typicalDailyKwh, clock.localHour(ms)) * dayFactor;
    const rated = load.ratedPowerW;
    if (rated != null && rated > meanW) {
      const window = Math.floor(minute / PROFILE_WINDOW_MINUTES);
      watts[index] = dutyCycledPowerW(
        meanW,
        rated,
        PROFILE_WINDOW_MINUTES,
        minute - window * PROFILE_WINDOW_MINUTES,
        uniform(seed, STREAMS.profileLoadPhase, window),
      );
    } else {
      const noisy = meanW * (1 + 0.1 * signedNoise(seed, STREAMS.profileLoadSmooth, minute / 13));
      watts[index] = rated != null ? Math.min(noisy, rated) : noisy;
    }
  }
  return watts;
}

export function applianceDay(load: ApplianceLoad, input: LoadDayInput): Float64Array {
  const { seed, dayIndex } = input;
  const rated = load.ratedPowerW ?? DEFAULT_APPLIANCE_POWER_W;
  const watts = new Float64Array(MINUTES_PER_DAY);
  const firstMinute = firstMinuteOf(dayIndex);
  for (let index = 0; index < MINUTES_PER_DAY; index++) {
    const minute = firstMinute + index;
    const window = Math.floor(minute / APPLIANCE_WINDOW_MINUTES);
    watts[index] = dutyCycledPowerW(
      rated * APPLIANCE_DUTY,
      rated,
      APPLIANCE_WINDOW_MINUTES,
      minute - window * APPLIANCE_WINDOW_MINUTES,
      uniform(seed, STREAMS.profileLoadPhase, window),
    );
  }
  return watts;
}
