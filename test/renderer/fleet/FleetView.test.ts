// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import type { PlantSummary } from '../../../api/schemas/fleet.ts';
import type { Alert, AlertsState } from '../../../electron/ipc/contract.ts';
import FleetView from '../../../renderer/src/views/FleetView.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';

/**
 * The fleet screen over a fake host: with the extension, one page of summaries, worst first,
 * with each plant's open alert; without it (404), the plant list filled in plant by plant with
 * never more than 6 requests in flight.
 */

const uuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
const LOCATION = { latitude: 41.9, longitude: 12.5, timezone: 'Europe/Rome', altitudeM: null };

function summary(index: number, overrides: Partial<PlantSummary> = {}): PlantSummary {
  return {
    plantUuid: uuid(index),
    name: `Plant ${index}`,
    externalIds: [],
    location: LOCATION,
    timezone: 'Europe/Rome',
    peakPowerKw: 5,
    localDate: '2026-07-02',
    productionKwh: 12.34,
    consumptionKwh: 8,
    expectedProductionKwh: 20,
    productionPercentOfExpected: 61.7,
    specificYieldKwhPerKwp: 2.47,
    specificYield7DaysKwhPerKwp: 30.1,
    status: 'HEALTHY',
    performancePercent: 97,
    lastReadingAt: '2026-07-02T09:58:00Z',
    sensorCounts: { total: 3, REPORTING: 2, LATE: 0, SILENT: 1, NEVER: 0 },
    ...overrides,
  };
}

function alertsState(alerts: Partial<Alert>[] = []): AlertsState {
  return {
    environmentId: 'local',
    alerts: alerts.map((alert, index) => ({
      id: `alert-${index}`,
      environmentId: 'local',
      plantUuid: uuid(1),
      plantName: 'Plant 1',
      timezone: 'Europe/Rome',
      rule: 'NO_PRODUCTION',
      subjectUuid: null,
      subjectName: null,
      severity: 'critical',
      message: 'No production since 10:30',
      since: '2026-07-02T08:30:00Z',
      openedAt: '2026-07-02T09:30:00Z',
      lastSeenAt: '2026-07-02T10:00:00Z',
      clearingSince: null,
      status: 'open',
      resolvedAt: null,
      acknowledged: null,
      muted: false,
      link: { view: 'dashboard' },
      history: [],
      ...alert,
    })),
    mutes: [],
    settings: { intervalMinutes: 5, notifications: true, keepInTray: false },
    lastCycle: null,
  };
}

const rowsOf = (wrapper: { findAll(selector: string): { text(): string }[] }) =>
  wrapper.findAll('tbody tr[data-p-index]').map((row) => row.text());

/** The fleet screen with the extension's summaries (one page) and one open alert of plant 1. */
async function mountWithSummaries(summaries: PlantSummary[]) {
  const app = await mountWithApp(FleetView, {
    route: '/fleet',
    routes: { listPlantSummaries: page(summaries, summaries.length, 50) },
    channels: { 'alerts.state': alertsState([{}]) },
  });
  await app.settle();
  return app;
}

describe('with the fleet extension', () => {
  test('the server pages and sorts, worst first; each row shows its figures and open alert', async () => {
    const app = await mountWithSummaries([
      summary(1, { status: 'FAULT', performancePercent: 12 }),
      summary(2),
    ]);
    const [first] = app.callsTo('listPlantSummaries');
    expect(first!.input!.query).toMatchObject({ page: 0, size: 50, sort: 'status,desc' });
    const rows = rowsOf(app.wrapper);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Fault');
    expect(rows[0]).toContain('No production since 10:30');
    expect(rows[0]).toContain('12.3 kWh');
    expect(rows[0]).toContain('62 % of 20.0 kWh');
    expect(rows[0]).toContain('2 of 3 reporting, 1 silent');
    expect(rows[1]).toContain('None');
    expect(app.wrapper.text()).not.toContain('assembled plant by plant');
  });
});

describe('kept current', () => {
  test('the page and the totals are read again every two minutes; the totals after the page', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const app = await mountWithSummaries([summary(1), summary(2)]);
      const sizes = () => app.callsTo('listPlantSummaries').map((call) => call.input!.query!.size);
      expect(sizes()).toEqual([50, 200]);
      await vi.advanceTimersByTimeAsync(119_000);
      expect(sizes()).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(sizes()).toEqual([50, 200, 50, 200]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('in German', () => {
  test('words, decimal commas and plurals follow the language', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithSummaries([
      summary(1, { status: 'FAULT', performancePercent: 12 }),
      summary(2, { sensorCounts: { total: 1, REPORTING: 1, LATE: 0, SILENT: 0, NEVER: 0 } }),
    ]);
    const rows = rowsOf(app.wrapper);
    expect(rows[0]).toContain('Störung');
    expect(rows[0]).toContain('12,3 kWh');
    expect(rows[0]).toContain('62 % von 20,0 kWh');
    expect(rows[0]).toContain('2,47 kWh/kWp');
    expect(rows[0]).toContain('2 von 3 melden, 1 stumm');
    expect(rows[1]).toContain('1 von 1 meldet');
    expect(rows[1]).toContain('Keine');
    const text = app.wrapper.text();
    expect(text).toContain('Heute erzeugt');
    expect(text).toContain('24,7 kWh');
    expect(app.wrapper.get('h1').text()).toBe('Flotte');
  });
});

describe('against a server with only the specification’s routes', () => {
  test('rows fill in plant by plant, never more than 6 requests in flight, and it says so', async () => {
    let inFlight = 0;
    let most = 0;
    const slow =
      <T>(value: T) =>
      async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return value;
      };
    const plants = Array.from({ length: 10 }, (_, index) => ({
      plantUuid: uuid(index + 1),
      name: `Plant ${index + 1}`,
      externalIds: [],
      location: LOCATION,
      pv: { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
      metadata: {},
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    }));
    const series = (value: number) => ({
      plantUuid: uuid(1),
      timezone: 'Europe/Rome',
      unit: 'kWh',
      from: '2026-06-26T00:00:00+02:00',
      to: '2026-07-03T00:00:00+02:00',
      points: [{ timestamp: '2026-07-02T00:00:00+02:00', value, coverage: 1 }],
    });
    const app = await mountWithApp(FleetView, {
      route: '/fleet',
      routes: {
        listPlantSummaries: apiError(404, 'Not Found'),
        listPlants: page(plants, 10, 50),
        dailyProduction: slow(series(15)),
        dailyConsumption: slow(series(9)),
        pvHealth: slow({
          plantUuid: uuid(1),
          timezone: 'Europe/Rome',
          from: '2026-06-25T00:00:00+02:00',
          to: '2026-07-02T00:00:00+02:00',
          energyProducedKwh: 140,
          expectedEnergyKwh: 200,
          performancePercent: 70,
          performanceRatio: null,
          status: 'DEGRADED',
          days: [],
        }),
      },
      channels: { 'alerts.state': alertsState() },
    });
    await app.settle();
    expect(app.wrapper.text()).toContain('figures are assembled plant by plant');
    await expect
      .poll(() => rowsOf(app.wrapper).every((row) => row.includes('Degraded')))
      .toBe(true);
    const rows = rowsOf(app.wrapper);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toContain('15.0 kWh');
    expect(rows[0]).toContain('9.0 kWh');
    expect(rows[0]).toContain('28.00 kWh/kWp');
    expect(app.callsTo('dailyProduction')).toHaveLength(10);
    expect(most).toBeLessThanOrEqual(6);
    expect(most).toBeGreaterThan(1);
  });
});
