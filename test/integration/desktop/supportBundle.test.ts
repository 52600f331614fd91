import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Envelope,
  LocalSandboxState,
  SessionState,
  SupportBundleDownload,
  SupportBundlePreview,
} from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import { spawnNodeServer } from '../../../electron/services/childProcessServer.ts';
import { createFileLog, type FileLog } from '../../../electron/services/fileLog.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';
import { until } from '../../support/until.ts';

/**
 * A support bundle made by the real services from a real Local sandbox server (over loopback):
 * a demo plant with vendor secrets, a signed-in user whose e-mail is in the log, and log lines
 * holding a live token pair and a password as an older or careless writer might have left them.
 * Every file of the zip is scanned for each of them.
 */

const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };
const SOLAREDGE_KEY = 'SE-KEY-7f3c1a9e5b2d4c6a';
const TESLA_REFRESH = 'tesla-refresh-91b0d2c4e6f8a1b3';
const TESLA_EMAIL = 'owner.tesla@example.org';
/** The sandbox runs at a fixed instant: nothing here depends on the day or hour of the run. */
const CLOCK = '2026-06-21T12:00:00+02:00';

describe('support bundle from a Local sandbox server', () => {
  let root: string;
  let logDir: string;
  let log: FileLog;
  let plantDesk: PlantDesk;
  let dispatch: ReturnType<typeof createDispatcher>;
  let sandboxUrl: string;
  const issuedTokens: string[] = [];

  async function value<T>(channel: string, ...args: unknown[]): Promise<T> {
    const envelope = (await dispatch(channel, args)) as Envelope<T>;
    if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
    return envelope.value;
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-bundle-'));
    logDir = path.join(root, 'logs');
    log = createFileLog({ dir: logDir, fileName: 'main.log' });
    plantDesk = await startPlantDesk({
      host: 'web',
      version: '9.9.9-test',
      dataDir: path.join(root, 'data'),
      logDir,
      spawnServer: spawnNodeServer(),
      localSandboxArgs: ['--no-simulation'],
      clock: CLOCK,
      secrets: {
        store: { ...createMemoryStore(), available: true },
        status: async () => ({ available: true }),
      },
      log,
      openExternal: async () => {},
    });
    dispatch = createDispatcher(plantDesk.handlers);
    const running = await until(async () => {
      const state = await value<LocalSandboxState>('localSandbox.state');
      if (state.status === 'failed') throw new Error('the Local sandbox failed');
      return state.status === 'running' ? state : undefined;
    }, 60_000);
    sandboxUrl = running.url!;
  }, 90_000);

  afterAll(async () => {
    await plantDesk?.dispose();
    await log?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('holds the plant model and the rest, and no secret, token, password or e-mail', async () => {
    const session = await value<SessionState>('session.signIn', { ...INSTALLER, remember: true });
    expect(session.status).toBe('signedIn');
    log.info('signed in', { user: INSTALLER.email });

    const plants = await value<{ content: { plantUuid: string; name: string }[] }>(
      'api.call',
      'listPlants',
      { query: { search: 'Demo Home' } },
    );
    const plant = plants.content.find((entry) => entry.name === 'Demo Home')!;
    const params = { plantUuid: plant.plantUuid };
    const vendors = await value<{ content: { vendorUuid: string; code: string }[] }>(
      'api.call',
      'listPlantVendors',
      { params, query: { size: 200 } },
    );
    const uuidOf = (code: string) => vendors.content.find((v) => v.code === code)!.vendorUuid;
    await value('api.call', 'configurePlantVendor', {
      params: { ...params, vendorUuid: uuidOf('SOLAREDGE') },
      body: { settings: { siteId: 'S-4711', apiKey: SOLAREDGE_KEY } },
    });
    await value('api.call', 'configurePlantVendor', {
      params: { ...params, vendorUuid: uuidOf('TESLA_ENERGY') },
      body: { settings: { accountEmail: TESLA_EMAIL, refreshToken: TESLA_REFRESH } },
    });

    // A live token pair of the sandbox, and lines a careless writer could have left in the log
    // folder (written around the file log, which would have masked them).
    const login = await fetch(`${sandboxUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(INSTALLER),
    });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string };
    issuedTokens.push(tokens.accessToken, tokens.refreshToken);
    fs.appendFileSync(
      path.join(logDir, 'main.log'),
      [
        `2026-06-21T10:00:00.000Z WARN retry Authorization: Bearer ${tokens.accessToken}`,
        `2026-06-21T10:00:01.000Z INFO refresh {"refreshToken":"${tokens.refreshToken}"}`,
        `2026-06-21T10:00:02.000Z INFO login password=${INSTALLER.password} for ${INSTALLER.email}`,
        `2026-06-21T10:00:03.000Z INFO vendor apiKey=${SOLAREDGE_KEY} owner ${TESLA_EMAIL}`,
        '',
      ].join('\n'),
    );

    const preview = await value<SupportBundlePreview>('supportBundle.prepare', params);
    expect(preview.plantName).toBe('Demo Home');
    expect(preview.fileName).toMatch(/^plantdesk-support-demo-home-\d{8}-\d{6}Z\.zip$/);
    const names = preview.files.map((file) => file.name);
    // The whole list is the unit test's; here, what the server gave.
    expect(names[0]).toBe('manifest.json');
    expect(names).toContain('plant/vendors.json');
    expect(names).toContain('plant/sensor-statuses.json');
    // The sandbox serves the model, sensor statuses and data health.
    expect(preview.missing).toEqual([]);
    expect(names).toContain('plant/data-health.json');

    const download = await value<SupportBundleDownload>('supportBundle.download', {
      bundleId: preview.bundleId,
    });
    expect(download.fileName).toBe(preview.fileName);
    const entries = unzipSync(Buffer.from(download.base64, 'base64'));
    expect(Object.keys(entries)).toEqual(names);

    const text = (name: string) => strFromU8(entries[name]!);
    const vendorFile = JSON.parse(text('plant/vendors.json')) as {
      code: string;
      settings: Record<string, unknown> | null;
      secretSettingsSet: Record<string, boolean>;
    }[];
    const solarEdge = vendorFile.find((vendor) => vendor.code === 'SOLAREDGE')!;
    expect(solarEdge.settings).toEqual({ siteId: 'S-4711' });
    expect(solarEdge.secretSettingsSet).toEqual({ apiKey: true });
    // Data health as its per-sensor summary: every sensor of Demo Home, with its coverage.
    const health = JSON.parse(text('plant/data-health.json')) as {
      sensors: { name: string; coveragePercent: number; gapCount: number }[];
    };
    expect(health.sensors.length).toBeGreaterThan(0);
    for (const sensor of health.sensors) {
      expect(sensor.coveragePercent).toBeGreaterThanOrEqual(0);
      expect(sensor.coveragePercent).toBeLessThanOrEqual(100);
      expect(Number.isInteger(sensor.gapCount)).toBe(true);
    }
    expect(JSON.parse(text('environment.json'))).toEqual({
      name: 'Local sandbox',
      kind: 'local',
      origin: new URL(sandboxUrl).origin,
    });
    expect(JSON.parse(text('app.json'))).toMatchObject({
      name: 'PlantDesk',
      version: '9.9.9-test',
      platform: process.platform,
    });
    const sensors = JSON.parse(text('plant/sensors.json')) as unknown[];
    expect(sensors.length).toBeGreaterThan(0);
    // The log lines are there, masked.
    expect(text('logs/recent.log')).toContain('signed in');
    expect(text('logs/recent.log')).toContain('Bearer [redacted]');
    expect(text('logs/recent.log')).toContain('[redacted-email]');

    const forbidden = [
      INSTALLER.email,
      INSTALLER.password,
      SOLAREDGE_KEY,
      TESLA_REFRESH,
      TESLA_EMAIL,
      ...issuedTokens,
      // A token's signature alone would be as bad as the token.
      ...issuedTokens.map((token) => token.split('.').at(-1)!),
    ];
    for (const [name, bytes] of Object.entries(entries)) {
      const content = strFromU8(bytes);
      for (const secret of forbidden) {
        expect(content.includes(secret), `${name} holds ${secret.slice(0, 12)}…`).toBe(false);
      }
      expect(content, `${name} holds an e-mail address`).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
      expect(content, `${name} holds a JWT`).not.toMatch(/ey[\w-]{10,}\.[\w-]{2,}\.[\w-]+/);
    }
  });

  it('makes the app-wide bundle (Help) without a plant', async () => {
    const preview = await value<SupportBundlePreview>('supportBundle.prepare', {});
    expect(preview.plantName).toBeNull();
    expect(preview.files.some((file) => file.name.startsWith('plant/'))).toBe(false);
    // Browser mode (no save dialog): the page downloads it instead.
    const saved = (await dispatch('supportBundle.save', [
      { bundleId: preview.bundleId },
    ])) as Envelope<unknown>;
    expect(saved).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
  });

  it('validates its arguments', async () => {
    for (const args of [[{ plantUuid: 'not-a-uuid' }], [{ extra: 1 }], []]) {
      expect(await dispatch('supportBundle.prepare', args)).toMatchObject({
        ok: false,
        error: { kind: 'invalidArguments' },
      });
    }
    expect(await dispatch('supportBundle.download', [{ bundleId: '../x' }])).toMatchObject({
      ok: false,
      error: { kind: 'invalidArguments' },
    });
  });
});
