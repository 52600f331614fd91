// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { Alert, ReportScheduleState } from '../../../electron/ipc/contract.ts';
import ReportsView from '../../../renderer/src/views/ReportsView.vue';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';

const ROOF = '11111111-1111-4111-8111-111111111111';
const BARN = '22222222-2222-4222-8222-222222222222';
const ZONE = 'Europe/Madrid';
const plant = (plantUuid: string, name: string, peakPowerKw: number) => ({
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
function week(first: number, last: number, kwh: number) {
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

const ALERT = {
  id: 'a1',
  plantUuid: ROOF,
  rule: 'SENSOR_SILENT',
  severity: 'warning',
  subjectName: 'Grid meter',
  message: 'Grid meter silent for 2 h',
  openedAt: '2026-03-10T08:00:00Z',
  resolvedAt: '2026-03-10T10:00:00Z',
} as Partial<Alert>;

const UNAVAILABLE: ReportScheduleState = {
  available: false,
  settings: { enabled: false, dayOfMonth: 1, folder: null },
  lastWritten: null,
  lastWrittenAt: null,
  lastError: null,
};

function mount() {
  return mountWithApp(ReportsView, {
    route: '/reports',
    routes: {
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
      summaryConsumption: week(1, 31, 4),
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
    },
    channels: {
      'alerts.state': { alerts: [ALERT], mutes: [], settings: {} },
      'reports.schedule': UNAVAILABLE,
    },
  });
}

describe('ReportsView', () => {
  test('makes the fleet report of a chosen month from the specification routes, with coverage', async () => {
    const app = await mount();
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();

    const daily = app.calls.filter((call) => call.route === 'dailyProduction');
    expect(
      daily
        .filter((call) => call.input?.params?.plantUuid === ROOF)
        .map((c) => c.input?.query?.date),
    ).toEqual(['2026-03-07', '2026-03-14', '2026-03-21', '2026-03-28', '2026-03-31']);
    const text = app.wrapper.text();
    expect(text).toContain('All plants (fleet): report for March 2026');
    // Roof: 31 × 10 kWh over 5 kWp = 62 kWh/kWp, ranked before Barn's 31.
    const ranking = app.wrapper
      .findAll('#report-ranking + table tbody tr')
      .map((row) => row.text());
    expect(ranking[0]).toContain('Roof');
    expect(ranking[0]).toContain('62');
    expect(ranking[1]).toContain('Barn');
    expect(text).toContain('310 kWh');
    expect(text).toContain('coverage 100%');
    expect(text).toContain('Degraded');
    expect(text).toContain('Grid meter silent for 2 h');
    // Browser mode: the PDF is the print dialog; the schedule needs the desktop app.
    expect(button(app.wrapper, 'Print').exists()).toBe(true);
    expect(text).toContain('Scheduled reports need the desktop app.');
  });

  test('a report that cannot be made says why, without an error screen', async () => {
    const app = await mount();
    app.routes.summaryConsumption = apiError(500, 'Database unavailable');
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toMatch(/2 plants could not be read: (Roof, Barn|Barn, Roof)/);
  });
});

describe('ReportsView on a plant page', () => {
  test('makes that plant’s report with its days, without the fleet’s schedule', async () => {
    const app = await mountWithApp(ReportsView, {
      props: { plantUuid: ROOF },
      route: `/plants/${ROOF}/reports`,
      routes: {
        listPlants: page([plant(ROOF, 'Roof', 5), plant(BARN, 'Barn', 2)]),
        summaryProduction: week(1, 31, 10),
        summaryConsumption: week(1, 31, 4),
        getPlant: plant(ROOF, 'Roof', 5),
        pvHealth: apiError(403, 'Permission PLANT_HEALTH READ required'),
      },
      channels: { 'alerts.state': { alerts: [], mutes: [], settings: {} } },
    });
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();
    const text = app.wrapper.text();
    expect(text).toContain('Roof: report for March 2026');
    expect(
      app.calls.some((call) => call.route === 'pvHealth' && call.input?.params?.plantUuid === BARN),
    ).toBe(false);
    // PV health not readable: its figures are not available, the energies are.
    expect(text).toContain('Not available');
    expect(app.wrapper.findAll('#report-days + table tbody tr')).toHaveLength(31);
    expect(text).not.toContain('Scheduled reports');
  });
});
