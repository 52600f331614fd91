import { pvFactorAt, type PvFault } from './faults.ts';
import { dispatchBattery, type BatterySpec } from './battery.ts';
import {
  applianceDay,
  profileLoadDay,
  type ApplianceLoad,
  type ProfileLoad,
} from './deviceLoad.ts';
import { evChargerDay, type EvChargerLoad } from './evCharger.ts';
import { heatPumpDay, type HeatPumpLoad } from './heatPump.ts';
import { householdDay, type HouseholdLoad } from './householdLoad.ts';
import type { LoadDayInput } from './loadShapes.ts';
import { plantSeed, signedNoise, STREAMS } from './noise.ts';
import { MINUTES_PER_DAY, PlantClock } from './plantClock.ts';
import { createSolarDaySimulator, type PvArray } from './solar.ts';
import { weatherDay, type WeatherSite } from './weather.ts';

/**
 * One plant's simulation, a UTC day at a time, each minute a pure function of (seed, plant,
 * minute): weather, PV, every load, the battery and the grid. The battery is the only state;
 * a day starts it from the state reached by running the three days before it from a fixed
 * state, so a day's values do not depend on where a backfill or a live run began (batteries
 * reach a limit almost every day, after which every such run agrees exactly).
 *
 * At every minute: consumption = production + grid + storage (GRID positive = import,
 * STORAGE positive = discharge), the grid being the balance.
 */

export type LoadSpec = { key: string } & (
  HouseholdLoad | HeatPumpLoad | EvChargerLoad | ProfileLoad | ApplianceLoad
);

export interface PlantSimulationConfig {
  plantUuid: string;
  /**
   * What the plant's randomness (clouds, loads) derives from, with `seed`: its name and place
   * rather than its uuid, so that a demo seeded again, or a test's server, simulates the same
   * weather and the same figures at every run.
   */
  seedKey: string;
  seed: number;
  site: WeatherSite;
  timezone: string;
  /** The PV array, or null for a plant without one. */
  pv: PvArray | null;
  /** Where an irradiance sensor looks: the array's plane, or a default one. */
  planeOfArray: { tiltDeg: number; azimuthDeg: number };
  battery: BatterySpec | null;
  loads: readonly LoadSpec[];
  /** Injected faults of the PV output (faults.ts): a tripped inverter, a soiled array. */
  pvFaults?: readonly PvFault[];
}

/** One UTC day, one value per minute (the value holds from that minute to the next). */
export interface SimulatedDay {
  dayIndex: number;
  temperatureC: Float64Array;
  poaWm2: Float64Array;
  pvW: Float64Array;
  /** Each load's power, by load key. */
  loadW: ReadonlyMap<string, Float64Array>;
  consumptionW: Float64Array;
  batteryW: Float64Array;
  socPercent: Float64Array;
  gridW: Float64Array;
  voltageV: Float64Array;
}

export interface PlantSimulation {
  readonly config: PlantSimulationConfig;
  day(dayIndex: number): SimulatedDay;
}

interface UncontrolledDay {
  temperatureC: Float64Array;
  poaWm2: Float64Array;
  pvW: Float64Array;
  loadW: Map<string, Float64Array>;
  consumptionW: Float64Array;
  /** consumption − production: what the battery sees. */
  netLoadW: Float64Array;
}

const WARM_UP_DAYS = 3;
const WARM_UP_START_SOC_PERCENT = 50;
const UNCONTROLLED_CACHE_DAYS = WARM_UP_DAYS + 5;
const DAY_CACHE_DAYS = 4;
const NOMINAL_VOLTAGE_V = 230;
/** Volts the supply rises per watt exported (and falls per watt imported). */
const GRID_IMPEDANCE_V_PER_W = 0.0004;

export function createPlantSimulation(config: PlantSimulationConfig): PlantSimulation {
  const seed = plantSeed(config.seed, config.seedKey);
  const clock = new PlantClock(config.timezone);
  const solarDay = createSolarDaySimulator(config.site, config.pv, config.planeOfArray);
  const loadSeeds = new Map(config.loads.map((load) => [load.key, plantSeed(seed, load.key)]));
  const uncontrolledCache = new DayCache<UncontrolledDay>(UNCONTROLLED_CACHE_DAYS);
  const dayCache = new DayCache<SimulatedDay>(DAY_CACHE_DAYS);

  const uncontrolled = (dayIndex: number): UncontrolledDay =>
    uncontrolledCache.get(dayIndex, () => {
      const weather = weatherDay(seed, config.site, dayIndex);
      const { poaWm2, pvW: healthyPvW } = solarDay(dayIndex, weather);
      const pvW = withPvFaults(healthyPvW, config.pvFaults ?? [], dayIndex);
      const consumptionW = new Float64Array(MINUTES_PER_DAY);
      const loadW = new Map<string, Float64Array>();
      for (const load of config.loads) {
        const watts = simulateLoad(load, {
          seed: loadSeeds.get(load.key)!,
          dayIndex,
          clock,
          weather,
        });
        loadW.set(load.key, watts);
        for (let index = 0; index < MINUTES_PER_DAY; index++) {
          consumptionW[index] = consumptionW[index]! + watts[index]!;
        }
      }
      const netLoadW = new Float64Array(MINUTES_PER_DAY);
      for (let index = 0; index < MINUTES_PER_DAY; index++) {
        netLoadW[index] = consumptionW[index]! - pvW[index]!;
      }
      return {
        temperatureC: weather.temperatureC,
        poaWm2,
        pvW,
        loadW,
        consumptionW,
        netLoadW,
      };
    });

  const day = (dayIndex: number): SimulatedDay =>
    dayCache.get(dayIndex, () => {
      const base = uncontrolled(dayIndex);
      const { batteryW, socPercent } = config.battery
        ? runBattery(config.battery, dayIndex)
        : {
            batteryW: new Float64Array(MINUTES_PER_DAY),
            socPercent: new Float64Array(MINUTES_PER_DAY),
          };
      const gridW = new Float64Array(MINUTES_PER_DAY);
      const voltageV = new Float64Array(MINUTES_PER_DAY);
      const firstMinute = dayIndex * MINUTES_PER_DAY;
      for (let index = 0; index < MINUTES_PER_DAY; index++) {
        const grid = base.consumptionW[index]! - base.pvW[index]! - batteryW[index]!;
        gridW[index] = grid;
        voltageV[index] =
          NOMINAL_VOLTAGE_V +
          2.5 * signedNoise(seed, STREAMS.voltage, (firstMinute + index) / 7) -
          GRID_IMPEDANCE_V_PER_W * grid;
      }
      return {
        dayIndex,
        temperatureC: base.temperatureC,
        poaWm2: base.poaWm2,
        pvW: base.pvW,
        loadW: base.loadW,
        consumptionW: base.consumptionW,
        batteryW,
        socPercent,
        gridW,
        voltageV,
      };
    });

  function runBattery(spec: BatterySpec, dayIndex: number) {
    let soc = WARM_UP_START_SOC_PERCENT;
    for (let warmUp = dayIndex - WARM_UP_DAYS; warmUp < dayIndex; warmUp++) {
      soc = dispatchBattery(spec, uncontrolled(warmUp).netLoadW, soc, false).endSocPercent;
    }
    return dispatchBattery(spec, uncontrolled(dayIndex).netLoadW, soc);
  }

  return { config, day };
}

function simulateLoad(load: LoadSpec, input: LoadDayInput): Float64Array {
  switch (load.kind) {
    case 'household':
      return householdDay(load, input);
    case 'heatPump':
      return heatPumpDay(load, input);
    case 'ev':
      return evChargerDay(load, input);
    case 'profile':
      return profileLoadDay(load, input);
    case 'appliance':
      return applianceDay(load, input);
  }
}

/** The last few days computed, by day index: backfills walk forward, live ticks stay on one. */
class DayCache<T> {
  readonly #capacity: number;
  readonly #days = new Map<number, T>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(dayIndex: number, compute: () => T): T {
    const cached = this.#days.get(dayIndex);
    if (cached) {
      // Most recently used last.
      this.#days.delete(dayIndex);
      this.#days.set(dayIndex, cached);
      return cached;
    }
    const value = compute();
    this.#days.set(dayIndex, value);
    if (this.#days.size > this.#capacity) {
      this.#days.delete(this.#days.keys().next().value!);
    }
    return value;
  }
}

/** The PV output with the plant's injected faults applied, minute by minute (a new array). */
function withPvFaults(
  pvW: Float64Array,
  faults: readonly PvFault[],
  dayIndex: number,
): Float64Array {
  if (faults.length === 0) return pvW;
  const faulty = new Float64Array(pvW.length);
  const firstMinuteMs = dayIndex * MINUTES_PER_DAY * 60_000;
  for (let index = 0; index < pvW.length; index++) {
    faulty[index] = pvW[index]! * pvFactorAt(faults, firstMinuteMs + index * 60_000);
  }
  return faulty;
}
