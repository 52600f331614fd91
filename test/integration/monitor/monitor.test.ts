import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AlertNotification, Events } from '../../../electron/ipc/contract.ts';
import { createApiClient } from '../../../electron/services/api/apiClient.ts';
import { IMMEDIATE_TIMING } from '../../../electron/services/monitor/alertLifecycle.ts';
import { createAlertStore } from '../../../electron/services/monitor/alertStore.ts';
import { createMonitor, type Monitor } from '../../../electron/services/monitor/monitorService.ts';
import { silentLogger } from '../../../electron/services/logger.ts';
import { DEFAULT_DEMO_FLEET_SIZE } from '../../../server/demo/demoFleet.ts';
import { historyWrittenSince } from '../../support/fleetHistory.ts';
import { testEngine } from '../../support/testDatabases.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * The monitor service against the real server with the demo fleet and its faults, at local noon
 * in Rome on 2 July (a fixed clock and a simulated weather that is the same at every run):
 * each fault shows as its alert, with the extension routes and, for PV health, without them.
 */

const NOW = Date.parse('2026-07-02T10:00:00Z');

interface Harness {
  server: TestServer;
  monitor: Monitor;
  notifications: AlertNotification[];
  events: Events['alerts.changed'][];
  dataDir: string;
}

async function harness(extensions: boolean): Promise<Harness> {
  const server = await TestServer.start({
    now: () => new Date(NOW),
    demoFleet: DEFAULT_DEMO_FLEET_SIZE,
    simulation: { historyDays: 8, live: false },
    extensions,
  });
  // PV health needs the 7 days that the background history writes: slower on PostgreSQL, the
  // more so beside the SQLite suites in `npm test` (the whole suite took 58 s there alone).
  await historyWrittenSince(
    server,
    NOW - 7 * 86_400_000,
    testEngine() === 'postgres' ? HISTORY_WAIT_MS.postgres : HISTORY_WAIT_MS.sqlite,
  );
  const token = await server.tokenFor('manager');
  const client = createApiClient({
    baseUrl: server.url,
    credentials: { token: async () => token, renewAfter401: async () => false },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-monitor-'));
  const notifications: AlertNotification[] = [];
  const events: Events['alerts.changed'][] = [];
  const monitor = createMonitor({
    store: createAlertStore(dataDir, silentLogger),
    signedIn: () => [{ environmentId: 'local', client, email: 'manager@plantdesk.test' }],
    emit: (event, payload) => {
      if (event === 'alerts.changed') events.push(payload as Events['alerts.changed']);
    },
    notify: (notification) => notifications.push(notification),
    now: () => NOW,
    timing: IMMEDIATE_TIMING,
  });
  return { server, monitor, notifications, events, dataDir };
}

const openRules = (monitor: Monitor) => {
  const byPlant: Record<string, string[]> = {};
  for (const alert of monitor.state('local').alerts) {
    if (alert.status === 'open') (byPlant[alert.plantName] ??= []).push(alert.rule);
  }
  for (const rules of Object.values(byPlant)) rules.sort();
  return byPlant;
};

const HISTORY_WAIT_MS = { sqlite: 60_000, postgres: 90_000 };

/** A harness for the describe block, checked once before its tests. */
function checkedHarness(extensions: boolean): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await harness(extensions);
    await h.monitor.check('local');
  }, HISTORY_WAIT_MS.postgres + 60_000);
  afterAll(async () => {
    h?.monitor.dispose();
    await h?.server.close();
    if (h) rmSync(h.dataDir, { recursive: true, force: true });
  });
  return () => h!;
}

describe('with the fleet extensions', () => {
  const harnessOf = checkedHarness(true);
  let h: Harness;
  beforeAll(() => {
    h = harnessOf();
  });

  test('every injected fault is found, and only those', () => {
    expect(openRules(h.monitor)).toEqual({
      'Berlin Dachhaus': ['NO_PRODUCTION'],
      'Madrid Casa Solar': ['PV_HEALTH'],
      'London Terrace': ['GRID_SIGN'],
      'Kathmandu Guesthouse': ['METER_UNITS'],
      'Milano Capannone': ['SENSOR_SILENT'],
      'München Bauernhof': ['SOC_STUCK'],
      'Valencia Apartamentos': ['ABOVE_CLEAR_SKY'],
    });
    expect(h.monitor.state('local').lastCycle).toMatchObject({ source: 'extension', plants: 13 });
  });

  test('each says what was measured against what was expected, and links to the evidence', () => {
    const alerts = h.monitor.state('local').alerts;
    const berlin = alerts.find((alert) => alert.plantName === 'Berlin Dachhaus')!;
    expect(berlin.message).toMatch(
      /^No production since 10:30 AM: 1 hr, 30 min of daylight at rest/,
    );
    expect(berlin.link).toMatchObject({ view: 'history', granularity: 'minutes' });
    const milano = alerts.find((alert) => alert.plantName === 'Milano Capannone')!;
    expect(milano.message).toMatch(
      /^PV production: no reading since 10:59 AM \(1 hr, 1 min\); it should report every 1 min$/,
    );
  });

  test('one notification per plant, and the count announced', () => {
    expect(h.notifications.map((entry) => entry.title).sort()).toEqual([
      'Berlin Dachhaus: 1 new alert',
      'Kathmandu Guesthouse: 1 new alert',
      'London Terrace: 1 new alert',
      'Madrid Casa Solar: 1 new alert',
      'Milano Capannone: 1 new alert',
      'München Bauernhof: 1 new alert',
      'Valencia Apartamentos: 1 new alert',
    ]);
    expect(h.events.at(-1)).toEqual({ environmentId: 'local', openCount: 7 });
  });

  test('alerts and acknowledgements survive a restart, in a private file', async () => {
    const alert = h.monitor.state('local').alerts[0]!;
    h.monitor.acknowledge('local', alert.id, 'manager@plantdesk.test', 'On it');
    const again = createMonitor({
      store: createAlertStore(h.dataDir, silentLogger),
      signedIn: () => [],
      emit: () => {},
      notify: () => {},
      now: () => NOW,
    });
    const restored = again.state('local').alerts.find((entry) => entry.id === alert.id)!;
    expect(restored.acknowledged).toMatchObject({ by: 'manager@plantdesk.test', note: 'On it' });
    expect(again.state('local').alerts.filter((entry) => entry.status === 'open')).toHaveLength(7);
    expect(statSync(join(h.dataDir, 'alerts', 'local.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(h.dataDir, 'alerts')).mode & 0o777).toBe(0o700);
  });

  test('a second cycle at the same instant notifies nothing new', async () => {
    const before = h.notifications.length;
    await h.monitor.check('local');
    expect(h.notifications.length).toBe(before);
  });
});

describe('against a server with only the specification’s routes', () => {
  const harnessOf = checkedHarness(false);
  let h: Harness;
  beforeAll(() => {
    h = harnessOf();
  });

  test('PV health still raises its alert, plant by plant; sensor rules wait for the extension', () => {
    expect(openRules(h.monitor)).toEqual({ 'Madrid Casa Solar': ['PV_HEALTH'] });
    expect(h.monitor.state('local').lastCycle).toMatchObject({
      source: 'specification',
      plants: 13,
    });
  });
});
