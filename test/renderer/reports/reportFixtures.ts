import type { Alert, PreparedReport } from '../../../electron/ipc/contract.ts';
import type { RouteId } from '../../../api/routes.ts';
import {
  makeReport,
  reportPlants,
  type ReportAlert,
  type ReportPeriod,
} from '../../../server/domain/reports/index.ts';
import { apiError, page, type RouteAnswers } from '../support/mountWithApp.ts';

/** A fleet of two plants in March 2026 (Roof 5 kWp, Barn 2 kWp), as the report tests see it. */

export const ROOF = '11111111-1111-4111-8111-111111111111';
export const BARN = '22222222-2222-4222-8222-222222222222';
export const ZONE = 'Europe/Madrid';
export const plant = (plantUuid: string, name: string, peakPowerKw: number) => ({
  plantUuid,
  name,
  externalIds: [],
  location: { latitude: 40.4, longitude: -3.7, timezone: ZONE },
  pv: { peakPowerKw, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 10 },
  metadata: {},
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** The days of March 2026 from `first` to `last` (a week of the specification's daily route). */
export function week(first: number, last: number, kwh: number) {
  const days = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const stamp = (day: number) =>
    `2026-03-${String(day).padStart(2, '0')}T00:00:00${day >= 30 ? '+02:00' : '+01:00'}`;
  return {
    plantUuid: ROOF,
    timezone: ZONE,
    unit: 'kWh',
    from: stamp(first),
    to: last === 31 ? '2026-04-01T00:00:00+02:00' : stamp(last + 1),
    points: days.map((day) => ({ timestamp: stamp(day), value: kwh, coverage: 1 })),
  };
}

const HOUR = 3_600_000;
/** Madrid's offset at an instant of 2026 (spring change 2026-03-29 01:00 UTC). */
const offsetAt = (ms: number) => (ms >= Date.parse('2026-03-29T01:00:00Z') ? 2 : 1);
const stampAt = (ms: number) =>
  `${new Date(ms + offsetAt(ms) * HOUR).toISOString().slice(0, 19)}+0${offsetAt(ms)}:00`;

/** Local days of winter `first` to `last` (yyyy-MM-dd, UTC+1), `kwh` each: the weeks before March. */
export function winterDays(first: string, last: string, kwh: number) {
  const days: string[] = [];
  for (
    let at = Date.parse(`${first}T00:00:00Z`);
    at <= Date.parse(`${last}T00:00:00Z`);
    at += 24 * HOUR
  )
    days.push(new Date(at).toISOString().slice(0, 10));
  const stamp = (day: string) => `${day}T00:00:00+01:00`;
  return {
    plantUuid: ROOF,
    timezone: ZONE,
    unit: 'kWh',
    from: stamp(days[0]!),
    to: stamp(new Date(Date.parse(`${last}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10)),
    points: days.map((day) => ({ timestamp: stamp(day), value: kwh, coverage: 1 })),
  };
}

/** March's consumption, and the weeks before it at 5 kWh a day. */
export const consumption = ({ query }: { query: { startDate: string; endDate: string } }) =>
  query.startDate === '2026-03-01'
    ? week(1, 31, 4)
    : winterDays(query.startDate, query.endDate, query.startDate === '2026-02-01' ? 5 : 0);

/** March by the hour: 1 kW from 06:00 to 19:00 UTC, and no data on the 10th. */
export function marchHours() {
  const start = Date.parse('2026-02-28T23:00:00Z');
  const end = Date.parse('2026-03-31T22:00:00Z');
  const points = [];
  for (let at = start; at < end; at += HOUR) {
    const hour = new Date(at).getUTCHours();
    const silent = stampAt(at).startsWith('2026-03-10');
    points.push({
      timestamp: stampAt(at),
      value: silent ? null : hour >= 6 && hour < 19 ? 1000 : 0,
      coverage: silent ? 0 : 1,
    });
  }
  return {
    plantUuid: ROOF,
    timezone: ZONE,
    unit: 'W',
    from: stampAt(start),
    to: stampAt(end),
    points,
  };
}

export const ALERT = {
  id: 'a1',
  plantUuid: ROOF,
  rule: 'SENSOR_SILENT',
  severity: 'warning',
  subjectName: 'Grid meter',
  message: 'Grid meter silent for 2 h',
  openedAt: '2026-03-10T08:00:00Z',
  resolvedAt: '2026-03-10T10:00:00Z',
} as Partial<Alert>;

/**
 * March's answers from a server with only the specification's routes: production comes week by
 * week; PV health says degraded.
 */
export function marchRoutes() {
  return {
    listPlants: page([plant(ROOF, 'Roof', 5), plant(BARN, 'Barn', 2)]),
    // A server with only the specification's routes: production comes week by week.
    summaryProduction: apiError(
      404,
      'No route for GET /plants/{plantUuid}/summary-daily-power-productions',
    ),
    dailyProduction: ({
      params,
      query,
    }: {
      params: { plantUuid: string };
      query: { date: string };
    }) => {
      const last = Number(query.date.slice(8, 10));
      return week(Math.max(1, last - 6), last, params.plantUuid === ROOF ? 10 : 2);
    },
    summaryConsumption: consumption,
    historyProduction: marchHours(),
    getDataHealth: apiError(404, 'No route for GET /plants/{plantUuid}/data-health'),
    pvHealth: ({ params }: { params: { plantUuid: string } }) => ({
      plantUuid: params.plantUuid,
      timezone: ZONE,
      from: '2026-03-01T00:00:00+01:00',
      to: '2026-04-01T00:00:00+02:00',
      energyProducedKwh: params.plantUuid === ROOF ? 310 : 62,
      expectedEnergyKwh: 400,
      performancePercent: 77.5,
      performanceRatio: null,
      status: 'DEGRADED',
      indicators: [],
    }),
  };
}

/**
 * The report the desktop host makes for its print window from these answers (as the schedule
 * does, with the monitor's `alerts`), handed over as `reports.preparedReport` answers it.
 */
export async function preparedFrom(
  routes: RouteAnswers,
  scope: 'fleet' | string,
  period: ReportPeriod,
  alerts: readonly Partial<Alert>[] = [],
): Promise<PreparedReport> {
  const answer = async (route: string, input: unknown) => {
    const given = routes[route as RouteId];
    const value = typeof given === 'function' ? await given(input) : given;
    if (value && typeof value === 'object' && 'kind' in value && 'status' in value) throw value;
    return structuredClone(value);
  };
  const deps = {
    call: answer,
    statusOf: (error: unknown) => (error as { status?: number }).status,
    alertsOf: (plantUuid: string) =>
      alerts.filter((alert) => alert.plantUuid === plantUuid) as ReportAlert[],
  };
  const plants = await reportPlants(deps, scope === 'fleet' ? undefined : scope);
  const made = await makeReport(deps, plants, period);
  if (made.failed.length > 0) throw new Error(`fixture answers failed: ${String(made.failed)}`);
  return { fleet: made.fleet, madeAt: '2026-04-01T06:00:00.000Z' };
}
