import { createPvModel, type PvSite } from '../server/domain/index.ts';
import { LOAD_SIGNATURES } from '../server/demo/catalogData.ts';
import { clearSkyHours, type MeasuredHour } from '../server/forecasts/clearSkyProduction.ts';
import { nextLocalHours } from '../server/forecasts/forecastHours.ts';
import {
  LOOKBACK_HOURS,
  loadForecastFrom,
  type FlowForecast,
} from '../server/forecasts/loadForecast.ts';
import { productionForecastFrom } from '../server/forecasts/productionForecast.ts';
import type { TimeRange } from '../server/measurements/metrics/localTime.ts';
import { createPlantSimulation } from '../server/simulator/plantSimulation.ts';
import type { BenchModule, BenchResult } from './benchResult.ts';

/**
 * Forecast backtest on a year of simulated history of a plant like Demo Home (Bolzano, 8.4 kWp,
 * household, heat pump, wallbox, battery): twice a day, the production and consumption
 * forecasts of the next 48 hours are made from the history before that moment, exactly as the
 * routes make them (the same pure model functions, fed the simulated hourly energy instead of
 * rollups), and compared with what the simulation then produced and consumed.
 *
 * Baseline: persistence, "the same hour yesterday" (for a target more than a day ahead, the
 * same hour of the last day already known). Skill = 1 − MAE_model / MAE_persistence; the
 * target is skill > 0. The share of outcomes inside the 80 % intervals is reported alongside.
 */

const ZONE = 'Europe/Rome';
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const SITE = { latitudeDeg: 46.4983, longitudeDeg: 11.3548, altitudeM: 262 };
const PV = { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 };
const FIRST_DAY = Date.UTC(2025, 9, 1) / DAY_MS; // 2025-10-01
const SIMULATED_DAYS = 365 + 3;
/** Origins start once the consumption model has its full lookback. */
const FIRST_ORIGIN_HOUR = LOOKBACK_HOURS;
const ORIGIN_SPACING_HOURS = 12;
const HORIZON_HOURS = 48;

interface SimulatedHours {
  /** Hour starts, epoch ms (whole UTC hours: local hours too in Europe/Rome). */
  buckets: TimeRange[];
  productionKwh: Float64Array;
  consumptionKwh: Float64Array;
}

function householdProfile(): number[] {
  const weights = LOAD_SIGNATURES.find((signature) => signature.code === 'HOUSEHOLD_BASE')!.weights;
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

function simulate(): SimulatedHours {
  const simulation = createPlantSimulation({
    plantUuid: 'forecast-bench',
    seedKey: 'forecast-bench',
    seed: 20_261_121,
    site: SITE,
    timezone: ZONE,
    pv: { ...PV, inverterLimitW: 8000 },
    planeOfArray: { tiltDeg: PV.tiltDeg, azimuthDeg: PV.azimuthDeg },
    battery: { capacityKwh: 10.2, maxPowerW: 5000 },
    loads: [
      {
        key: 'household',
        kind: 'household',
        hourlyProfile: householdProfile(),
        typicalDailyKwh: 8.5,
      },
      { key: 'heatPump', kind: 'heatPump', ratedPowerW: 3200 },
      { key: 'ev', kind: 'ev', chargingPowerW: 11_000 },
    ],
  });
  const hours = SIMULATED_DAYS * 24;
  const productionKwh = new Float64Array(hours);
  const consumptionKwh = new Float64Array(hours);
  for (let day = 0; day < SIMULATED_DAYS; day++) {
    const simulated = simulation.day(FIRST_DAY + day);
    for (let minute = 0; minute < 1440; minute++) {
      const hour = day * 24 + Math.floor(minute / 60);
      // One minute at P watts is P / 60 000 kWh.
      productionKwh[hour] = productionKwh[hour]! + simulated.pvW[minute]! / 60_000;
      consumptionKwh[hour] = consumptionKwh[hour]! + simulated.consumptionW[minute]! / 60_000;
    }
  }
  const buckets = Array.from({ length: hours }, (_, hour) => {
    const start = FIRST_DAY * DAY_MS + hour * HOUR_MS;
    return { start, end: start + HOUR_MS };
  });
  return { buckets, productionKwh, consumptionKwh };
}

class Scores {
  modelError = 0;
  persistenceError = 0;
  inside = 0;
  count = 0;
  origins = 0;

  add(forecast: FlowForecast, actual: Float64Array, originHour: number): void {
    this.origins += 1;
    forecast.hours.forEach((point, position) => {
      const target = originHour + position;
      // The same hour of the last day whose value is known at the origin.
      const persistence = actual[target - 24 * Math.ceil((position + 1) / 24)]!;
      const observed = actual[target]!;
      this.modelError += Math.abs(observed - point.value);
      this.persistenceError += Math.abs(observed - persistence);
      if (observed >= point.lower - 1e-9 && observed <= point.upper + 1e-9) this.inside += 1;
      this.count += 1;
    });
  }

  result(name: string): BenchResult {
    const modelMae = this.modelError / this.count;
    const persistenceMae = this.persistenceError / this.count;
    const skill = 1 - modelMae / persistenceMae;
    const coverage = this.inside / this.count;
    console.log(
      `${name}\n  MAE ${modelMae.toFixed(4)} kWh, persistence ${persistenceMae.toFixed(4)} kWh, ` +
        `skill ${skill.toFixed(3)}, 80% interval holds ${(coverage * 100).toFixed(1)} %`,
    );
    // The report prints whole numbers: the skill goes there in percent.
    return {
      name,
      value: skill * 100,
      unit: '% skill',
      target: 'skill > 0',
      outcome: Number.isFinite(skill) ? (skill > 0 ? 'PASS' : 'MISS') : 'INVALID',
      note:
        `skill ${skill.toFixed(3)}: MAE ${modelMae.toFixed(3)} vs persistence ${persistenceMae.toFixed(3)} kWh/h over ` +
        `${this.origins} origins × ${HORIZON_HOURS} h; 80% interval holds ${(coverage * 100).toFixed(0)} %`,
    };
  }
}

function pastHours(simulated: SimulatedHours, originHour: number, count: number): TimeRange[] {
  return simulated.buckets.slice(originHour - count, originHour);
}

export const forecastBenchmark: BenchModule = {
  title: `Forecasts: backtest skill vs persistence (simulated Demo Home, 1 year, ${HORIZON_HOURS} h ahead)`,
  async run() {
    const simulated = simulate();
    const site: PvSite = { ...SITE, pv: PV };
    const model = createPvModel(site);
    const clearSky = clearSkyHours(model, simulated.buckets);
    const production = new Scores();
    const consumption = new Scores();
    const lastOrigin = simulated.buckets.length - HORIZON_HOURS;
    for (let origin = FIRST_ORIGIN_HOUR; origin <= lastOrigin; origin += ORIGIN_SPACING_HOURS) {
      const nowMs = simulated.buckets[origin]!.start;
      const targets = nextLocalHours(ZONE, nowMs, HORIZON_HOURS);

      const past: MeasuredHour[] = clearSky.slice(origin - 7 * 24, origin).map((hour, index) => ({
        ...hour,
        measuredKwh: simulated.productionKwh[origin - 7 * 24 + index]!,
      }));
      production.add(
        productionForecastFrom(model, past, targets, nowMs),
        simulated.productionKwh,
        origin,
      );

      const values = Array.from(simulated.consumptionKwh.subarray(origin - LOOKBACK_HOURS, origin));
      const history = {
        buckets: pastHours(simulated, origin, LOOKBACK_HOURS),
        values,
        coveredHours: values.length,
      };
      consumption.add(
        loadForecastFrom(ZONE, history, [], targets)!,
        simulated.consumptionKwh,
        origin,
      );
    }
    return [
      production.result('Production forecast (clear sky × clear-sky index)'),
      consumption.result('Consumption forecast (weekly-seasonal blend)'),
    ];
  },
};
