import { z } from 'zod';
import { defineRoute } from './route.ts';
import { permission as p } from './permissions.ts';
import { Uuid } from './schemas/common.ts';
import { booleanParam, integerParam } from './schemas/query.ts';
import { localDateParam, localDateTimeParam } from './schemas/dates.ts';
import {
  DeviceTypeForecast,
  EnergyBreakdown,
  ForecastSeries,
  GRANULARITIES,
  MAX_HISTORY_POINTS,
  MAX_SUMMARY_DAYS,
  PvHealth,
  ReadingsAccepted,
  ReadingsBatch,
  Series,
} from './schemas/metrics.ts';

/** Measurements and metrics: the readings extension and every metrics route of the specification. */

const plantPath = z.object({ plantUuid: Uuid });
const CONSUMPTION = p('PLANT_POWER_CONSUMPTION', 'READ');
const PRODUCTION = p('PLANT_POWER_PRODUCTION', 'READ');

const referenceDay = z.object({
  date: localDateParam('date')
    .optional()
    .meta({ description: "Reference day, yyyy-MM-dd, in the plant's zone; default today" }),
});
const forecastHorizon = z.object({
  hours: integerParam('hours', 1, 168).meta({ description: 'Hours ahead, 1..168, default 48' }),
});
const historyRange = z.object({
  startDate: localDateTimeParam('startDate'),
  endDate: localDateTimeParam('endDate'),
  granularity: z
    .enum(GRANULARITIES, { error: `granularity must be one of ${GRANULARITIES.join(', ')}` })
    .optional()
    .meta({ description: '`seconds` answers the raw samples. Default: hours' }),
});
const summaryRange = z.object({
  startDate: localDateParam('startDate'),
  endDate: localDateParam('endDate').optional(),
});
const energyRange = z.object({
  startDate: localDateTimeParam('startDate'),
  endDate: localDateTimeParam('endDate'),
});

type FlowKind = 'consumption' | 'production';

/** What each energy flow's routes are named after and what permission they need. */
const FLOWS = {
  consumption: { Kind: 'Consumption', permission: CONSUMPTION },
  production: { Kind: 'Production', permission: PRODUCTION },
} as const;

function daily(kind: FlowKind) {
  const { Kind, permission } = FLOWS[kind];
  return defineRoute({
    operationId: `daily${Kind}`,
    method: 'GET',
    path: `/plants/{plantUuid}/daily-power-${kind}s`,
    tag: 'Energy',
    summary: `${Kind} of the 7 local days ending with the reference day (kWh)`,
    auth: 'access',
    permissions: [permission],
    ownership: true,
    params: plantPath,
    query: referenceDay,
    status: 200,
    response: Series,
  });
}

function hourly(kind: FlowKind) {
  const { Kind, permission } = FLOWS[kind];
  return defineRoute({
    operationId: `hourly${Kind}`,
    method: 'GET',
    path: `/plants/{plantUuid}/hourly-power-${kind}s`,
    tag: 'Energy',
    summary: `${Kind} of 24 hours (kWh)`,
    description:
      'With `date`, the 24 hours ending at the end of that local day; without, the 24 hours ending with the current hour.',
    auth: 'access',
    permissions: [permission],
    ownership: true,
    params: plantPath,
    query: referenceDay,
    status: 200,
    response: Series,
  });
}

function summary(kind: FlowKind) {
  const { Kind, permission } = FLOWS[kind];
  const limits = `From startDate to endDate (default today) inclusive; at most ${MAX_SUMMARY_DAYS} days, and startDate not after endDate (else 422).`;
  return defineRoute({
    operationId: `summary${Kind}`,
    method: 'GET',
    path: `/plants/{plantUuid}/summary-daily-power-${kind}s`,
    tag: 'Energy',
    summary: `${Kind} per local day over a range (kWh)${kind === 'production' ? ' (extension)' : ''}`,
    description:
      kind === 'production'
        ? `Extension: the specification names only the consumption summary; this is its production twin, with the same parameters, limits and answer. ${limits}`
        : limits,
    auth: 'access',
    permissions: [permission],
    ownership: true,
    ...(kind === 'production' && { extension: 'plantdesk' as const }),
    params: plantPath,
    query: summaryRange,
    status: 200,
    response: Series,
    extraErrors: [422],
  });
}

function forecast(kind: FlowKind) {
  const { Kind, permission } = FLOWS[kind];
  return defineRoute({
    operationId: `predict${Kind}`,
    method: 'GET',
    path: `/plants/{plantUuid}/predict-power-${kind}`,
    tag: 'Forecasts',
    summary: `Hourly ${kind} forecast with an 80% interval (kWh)`,
    description:
      kind === 'production'
        ? 'From solar position and clear-sky irradiance on the plane of the array, scaled by the recent clear-sky index. Without location or PV settings: 422.'
        : "From the plant's own history with weekly seasonality; falls back to load signatures when history is short.",
    auth: 'access',
    permissions: [permission],
    ownership: true,
    params: plantPath,
    query: forecastHorizon,
    status: 200,
    response: ForecastSeries,
    extraErrors: [422],
  });
}

function history(kind: FlowKind) {
  const { Kind, permission } = FLOWS[kind];
  return defineRoute({
    operationId: `history${Kind}`,
    method: 'GET',
    path: `/plants/{plantUuid}/sensor-history-${kind}s`,
    tag: 'Sensor history',
    summary: `${Kind} power history, average W per bucket`,
    description: `At most ${MAX_HISTORY_POINTS.toLocaleString('en')} points (else 422 naming a coarser granularity). startDate after endDate: 422.`,
    auth: 'access',
    permissions: [permission],
    ownership: true,
    params: plantPath,
    query: historyRange,
    status: 200,
    response: Series,
    extraErrors: [422],
  });
}

export const metricsRoutes = {
  ingestReadings: defineRoute({
    operationId: 'ingestReadings',
    method: 'POST',
    path: '/plants/{plantUuid}/sensors/{sensorUuid}/readings',
    tag: 'Measurements',
    summary: 'Ingest readings of a sensor (extension)',
    description:
      'All or nothing: one bad reading rejects the batch (400 or 422 naming its index). A reading for a timestamp already stored replaces it. ' +
      'A server that keeps raw readings for a limited time (raw retention, N days) refuses a reading older than that with 422 naming its index; ' +
      'the metrics of older days stay, from their rollups, while raw-sample history (seconds, minutes) has no points there.',
    auth: 'access',
    permissions: [p('READINGS', 'CREATE')],
    ownership: true,
    extension: 'decisions',
    params: plantPath.extend({ sensorUuid: Uuid }),
    body: ReadingsBatch,
    status: 202,
    response: ReadingsAccepted,
    extraErrors: [404, 422],
  }),
  dailyConsumption: daily('consumption'),
  hourlyConsumption: hourly('consumption'),
  summaryConsumption: summary('consumption'),
  predictConsumption: forecast('consumption'),
  dailyProduction: daily('production'),
  hourlyProduction: hourly('production'),
  summaryProduction: summary('production'),
  predictProduction: forecast('production'),
  predictByDeviceType: defineRoute({
    operationId: 'predictByDeviceType',
    method: 'GET',
    path: '/plants/{plantUuid}/predict',
    tag: 'Forecasts',
    summary: 'Hourly energy forecast of the next local day per device type',
    auth: 'access',
    permissions: [p('DAILY_PREDICTIONS', 'READ')],
    ownership: true,
    params: plantPath,
    query: z.object({
      consumerOnly: booleanParam('consumerOnly').meta({
        description: 'Only device types of the CONSUMER category',
      }),
    }),
    status: 200,
    response: DeviceTypeForecast,
  }),
  historyConsumption: history('consumption'),
  historyProduction: history('production'),
  energyBreakdown: defineRoute({
    operationId: 'energyBreakdown',
    method: 'GET',
    path: '/plants/{plantUuid}/sensor-history-energy',
    tag: 'Sensor history',
    summary: 'Energy per load and source with percentages (kWh)',
    auth: 'access',
    permissions: [CONSUMPTION, PRODUCTION],
    ownership: true,
    params: plantPath,
    query: energyRange,
    status: 200,
    response: EnergyBreakdown,
    extraErrors: [422],
  }),
  pvHealth: defineRoute({
    operationId: 'pvHealth',
    method: 'GET',
    path: '/plants/{plantUuid}/pv-health',
    tag: 'PV health',
    summary: 'Produced against expected energy, performance ratio and status',
    description: 'startDate and endDate (yyyy-MM-dd) default to the last 7 full local days.',
    auth: 'access',
    permissions: [p('PLANT_HEALTH', 'READ')],
    ownership: true,
    params: plantPath,
    query: z.object({
      startDate: localDateParam('startDate').optional(),
      endDate: localDateParam('endDate').optional(),
    }),
    status: 200,
    response: PvHealth,
    extraErrors: [422],
  }),
};
