import { clamp, STREAMS, uniform, uniformPart } from './noise.ts';
import { MINUTES_PER_DAY } from './plantClock.ts';
import {
  dutyCycledPowerW,
  firstMinuteOf,
  localDaysTouching,
  type LoadDayInput,
} from './loadShapes.ts';

/**
 * An air-to-water heat pump. Space heating: the house loses heat in proportion to how far the
 * outdoor air is below the heating limit (15 °C), a little less at night (setback); the
 * electric power is that heat over the COP, which falls as the air gets colder. The compressor
 * modulates between a third of its rated power and the rating; below that it cycles on and off
 * in half-hour windows. Hot water: a morning run every day and an evening top-up on some days,
 * during which space heating pauses (one compressor).
 */

export interface HeatPumpLoad {
  kind: 'heatPump';
  /** Maximum electric power, W. */
  ratedPowerW: number;
}

export const HEATING_LIMIT_C = 15;
const STANDBY_W = 10;
const MIN_MODULATION = 0.3;
const CYCLE_WINDOW_MINUTES = 30;
/** Heat loss per kelvin per watt of rating: the pump covers the design day with room to spare. */
const HEAT_LOSS_W_PER_K_PER_RATED_W = 0.06;
const NIGHT_SETBACK = 0.85;

/** Coefficient of performance of an air-to-water heat pump at outdoor temperature `outdoorC`. */
export function coefficientOfPerformance(outdoorC: number): number {
  return clamp(3.3 + 0.085 * outdoorC, 1.8, 5);
}

/** Electric power (W) the heat pump needs for space heating, before cycling and capping. */
export function spaceHeatingDemandW(
  ratedPowerW: number,
  outdoorC: number,
  localHour: number,
): number {
  const deficitK = Math.max(HEATING_LIMIT_C - outdoorC, 0);
  const night = localHour < 6 || localHour >= 22;
  const heatW =
    HEAT_LOSS_W_PER_K_PER_RATED_W * ratedPowerW * deficitK * (night ? NIGHT_SETBACK : 1);
  return heatW / coefficientOfPerformance(outdoorC);
}

export function heatPumpDay(load: HeatPumpLoad, input: LoadDayInput): Float64Array {
  const { seed, dayIndex, clock, weather } = input;
  const rated = load.ratedPowerW;
  const minimumW = rated * MIN_MODULATION;
  const phase = uniform(seed, STREAMS.heatPumpPhase, 0);
  const watts = new Float64Array(MINUTES_PER_DAY);
  const firstMinute = firstMinuteOf(dayIndex);
  for (let index = 0; index < MINUTES_PER_DAY; index++) {
    const minute = firstMinute + index;
    const demandW = spaceHeatingDemandW(
      rated,
      weather.temperatureC[index]!,
      clock.localHour(minute * 60_000),
    );
    let power: number;
    if (demandW >= minimumW) {
      const jitter = 1 + 0.03 * (2 * uniform(seed, STREAMS.heatPumpJitter, minute) - 1);
      power = Math.min(demandW * jitter, rated);
    } else {
      const window = Math.floor(minute / CYCLE_WINDOW_MINUTES);
      power = dutyCycledPowerW(
        demandW,
        minimumW,
        CYCLE_WINDOW_MINUTES,
        minute - window * CYCLE_WINDOW_MINUTES,
        uniform(seed, STREAMS.heatPumpPhase, window + 1) * 0.5 + phase * 0.5,
      );
    }
    watts[index] = Math.max(power, STANDBY_W);
  }
  for (const localDay of localDaysTouching(clock, dayIndex)) {
    const draw = (part: number) => uniformPart(seed, STREAMS.heatPumpHotWater, localDay, part);
    const hotWaterW = Math.min(rated, Math.max(0.75 * rated, 1500));
    runHotWater(
      watts,
      input,
      clock.wallClockMs(localDay, 345 + draw(0) * 75),
      25 + draw(1) * 20,
      hotWaterW,
    );
    if (draw(2) < 0.5) {
      runHotWater(
        watts,
        input,
        clock.wallClockMs(localDay, 1110 + draw(3) * 120),
        15 + draw(4) * 10,
        hotWaterW,
      );
    }
  }
  return watts;
}

/** Hot water replaces space heating for whole minutes of the run. */
function runHotWater(
  watts: Float64Array,
  { dayIndex }: LoadDayInput,
  startMs: number,
  minutes: number,
  powerW: number,
): void {
  const from = Math.round((startMs - dayIndex * MINUTES_PER_DAY * 60_000) / 60_000);
  const to = from + Math.round(minutes);
  for (let index = Math.max(from, 0); index < Math.min(to, MINUTES_PER_DAY); index++) {
    watts[index] = powerW;
  }
}
