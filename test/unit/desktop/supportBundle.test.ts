import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTranslator } from '../../../i18n/translator.ts';
import type { Alert } from '../../../electron/ipc/contract.ts';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import { VENDORS } from '../../../server/demo/catalogData.ts';
import {
  bundleFiles,
  manifestOf,
  MANIFEST_FILE,
  missingParts,
  RECENT_RESOLVED_ALERTS,
  vendorForBundle,
  withManifest,
  type BundleSources,
} from '../../../electron/services/supportBundle/bundleFiles.ts';
import type { SaveDialogOptions } from '../../../electron/services/saveDialog.ts';
import { createBundleSaver } from '../../../electron/services/supportBundle/bundleSaver.ts';
import {
  bundleFileName,
  createSupportBundleService,
} from '../../../electron/services/supportBundle/supportBundleService.ts';
import { readPlantSources } from '../../../electron/services/supportBundle/bundleSources.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import type { ApiClient } from '../../../electron/services/api/apiClient.ts';
import { recentLogLines } from '../../../electron/services/supportBundle/logTail.ts';

const PIN = { name: 'pin', label: 'PIN', type: 'secret', required: false } as const;
const AT = new Date('2026-06-01T10:00:00.000Z');
const PLANT_UUID = '11111111-1111-4111-8111-111111111111';

/** What the bundle reads of an alert; the rest of it travels as it is. */
function alert(overrides: Partial<Alert>): Alert {
  const open = { id: 'a', plantUuid: PLANT_UUID, status: 'open', resolvedAt: null };
  return { ...open, message: 'Silent', acknowledged: null, ...overrides } as Alert;
}

const solarEdge: PlantVendor = {
  vendorUuid: '22222222-2222-4222-8222-222222222222',
  ...VENDORS.find((vendor) => vendor.code === 'SOLAREDGE')!,
  configSchema: {
    fields: [...VENDORS.find((vendor) => vendor.code === 'SOLAREDGE')!.fields, PIN],
  },
  configured: true,
  // A server that (wrongly) answers a secret field: the bundle drops it all the same.
  settings: { siteId: 'S-4711', pin: '0000' },
  secretFieldsSet: ['apiKey'],
  configuredAt: '2026-05-01T00:00:00Z',
};

function sources(overrides: Partial<BundleSources> = {}): BundleSources {
  return {
    createdAt: AT.toISOString(),
    app: {
      name: 'PlantDesk',
      version: '1.2.3',
      host: 'electron',
      platform: 'linux',
      arch: 'x64',
      versions: { node: '24.0.0' },
      language: 'en',
    },
    environment: { name: 'Local sandbox', kind: 'local', origin: 'http://127.0.0.1:4000' },
    plant: {
      plant: { plantUuid: PLANT_UUID, name: 'Demo Home' } as never,
      devices: { available: true, value: [] },
      sensors: { available: true, value: [] },
      vendors: { available: true, value: [solarEdge] },
      sensorStatuses: { available: true, value: { sensors: [] } },
      dataHealth: {
        available: false,
        reason: 'the server does not serve GET /plants/{plantUuid}/data-health (extension)',
      },
    },
    alerts: [
      alert({
        id: 'open',
        acknowledged: { by: 'installer@plantdesk.test', at: '2026-06-01T09:00:00Z' },
      }),
    ],
    logLines: [
      '2026-06-01T09:00:00.000Z INFO signed in {"email":"installer@plantdesk.test"}',
      '2026-06-01T09:00:01.000Z WARN retry Authorization: Bearer abc.def',
    ],
    ...overrides,
  };
}

describe('support bundle files', () => {
  it('lists the plant model, statuses, data health, alerts, app, environment and log', () => {
    const files = withManifest(sources(), bundleFiles(sources()));
    expect(files.map((file) => file.name)).toEqual([
      MANIFEST_FILE,
      'app.json',
      'environment.json',
      'plant/plant.json',
      'plant/devices.json',
      'plant/sensors.json',
      'plant/vendors.json',
      'plant/sensor-statuses.json',
      'plant/data-health.unavailable.txt',
      'alerts.json',
      'logs/recent.log',
    ]);
    const byName = new Map(files.map((file) => [file.name, file.text]));
    expect(byName.get('plant/data-health.unavailable.txt')).toContain('does not serve');
    expect(JSON.parse(byName.get('environment.json')!)).toEqual({
      name: 'Local sandbox',
      kind: 'local',
      origin: 'http://127.0.0.1:4000',
    });
    const everything = files.map((file) => file.text).join('\n');
    expect(everything).not.toContain('installer@plantdesk.test');
    expect(everything).not.toContain('abc.def');
    expect(everything).not.toContain('0000');
  });

  it('the manifest gives every other file with its size in bytes', () => {
    const files = bundleFiles(
      sources({ logLines: ['2026-06-01T09:00:00.000Z INFO Größe ✓'], plant: undefined }),
    );
    const manifest = JSON.parse(withManifest(sources(), files)[0]!.text) as {
      files: { name: string; bytes: number }[];
    };
    expect(manifest.files).toEqual(manifestOf(files));
    const log = manifest.files.find((file) => file.name === 'logs/recent.log')!;
    expect(log.bytes).toBe(Buffer.byteLength('2026-06-01T09:00:00.000Z INFO Größe ✓\n'));
    // The app-wide bundle has no plant folder.
    expect(files.some((file) => file.name.startsWith('plant/'))).toBe(false);
  });

  it('names the parts the server did not give', () => {
    expect(missingParts(sources().plant)).toEqual(['dataHealth']);
    expect(missingParts(undefined)).toEqual([]);
  });

  it('keeps of a vendor its plain settings and whether each secret is set', () => {
    expect(vendorForBundle(solarEdge)).toMatchObject({
      settings: { siteId: 'S-4711' },
      secretSettingsSet: { pin: false, apiKey: true },
    });
  });

  it('keeps every open alert and the newest resolved ones', () => {
    const resolved = Array.from({ length: RECENT_RESOLVED_ALERTS + 5 }, (_, index) =>
      alert({
        id: `r${index}`,
        status: 'resolved',
        resolvedAt: new Date(AT.getTime() - index * 60_000).toISOString(),
      }),
    );
    const files = bundleFiles(sources({ alerts: [...resolved, alert({ id: 'open' })] }));
    const alerts = JSON.parse(files.find((file) => file.name === 'alerts.json')!.text) as {
      open: Alert[];
      recentlyResolved: Alert[];
    };
    expect(alerts.open.map((entry) => entry.id)).toEqual(['open']);
    expect(alerts.recentlyResolved).toHaveLength(RECENT_RESOLVED_ALERTS);
    expect(alerts.recentlyResolved[0]!.id).toBe('r0');
  });

  it('names the file after the plant and the UTC time', () => {
    expect(bundleFileName('Démo Home / Süd', AT)).toBe(
      'plantdesk-support-demo-home-sud-20260601-100000Z.zip',
    );
    expect(bundleFileName(null, AT)).toBe('plantdesk-support-app-20260601-100000Z.zip');
  });
});

describe("a plant's sources", () => {
  const page = <T>(content: T[]) => ({ content, page: { totalPages: 1 } });
  const notServed = () => Promise.reject(new ApiError('api', 'Not Found', { status: 404 }));
  function client(overrides: Partial<Record<keyof ApiClient, unknown>>): ApiClient {
    return {
      getPlant: async () => ({ plantUuid: PLANT_UUID, name: 'Demo Home' }),
      listDevices: async () => page([{ deviceUuid: 'd' }]),
      listSensors: async () => page([]),
      listPlantVendors: async () => page([solarEdge]),
      listSensorStatuses: notServed,
      getDataHealth: async () => ({
        plantUuid: PLANT_UUID,
        timezone: 'Europe/Rome',
        from: '2026-03-01',
        to: '2026-05-29',
        evaluatedAt: '2026-05-29T12:00:00+02:00',
        sensors: [],
      }),
      ...overrides,
    } as unknown as ApiClient;
  }

  it('includes the data-health summary when the route answers, else says why not', async () => {
    const served = await readPlantSources(client({}), PLANT_UUID);
    expect(served.dataHealth).toEqual({
      available: true,
      value: {
        plantUuid: PLANT_UUID,
        timezone: 'Europe/Rome',
        from: '2026-03-01',
        to: '2026-05-29',
        evaluatedAt: '2026-05-29T12:00:00+02:00',
        sensors: [],
      },
    });
    expect(served.devices).toEqual({ available: true, value: [{ deviceUuid: 'd' }] });
    // A server with only the specification's routes: no sensor statuses, said so.
    expect(served.sensorStatuses).toEqual({
      available: false,
      reason: 'the server does not serve GET /plants/{plantUuid}/sensor-statuses (extension)',
    });
    const old = await readPlantSources(client({ getDataHealth: notServed }), PLANT_UUID);
    expect(old.dataHealth).toMatchObject({ available: false, reason: /does not serve/ });
  });
});

describe('support bundle service', () => {
  const t = () => createTranslator('en');
  const base = {
    active: () => ({
      environment: { id: 'local', name: 'Local sandbox', kind: 'local', origin: '' },
      client: null,
    }),
    alerts: () => [alert({ id: 'one' }), alert({ id: 'other', plantUuid: 'x' })],
    logLines: () => ['2026-06-01T09:00:00.000Z INFO mail me at a@b.io'],
    app: () => sources().app,
    now: () => AT,
    t,
  };

  it('prepares the app-wide bundle, lists its files, and zips exactly them', async () => {
    let id = 0;
    const service = createSupportBundleService({ ...base, newId: () => `id-${++id}` });
    const preview = await service.prepare({});
    expect(preview.plantName).toBeNull();
    expect(preview.fileName).toBe('plantdesk-support-app-20260601-100000Z.zip');
    const download = service.download(preview.bundleId);
    const zip = Buffer.from(download.base64, 'base64');
    expect(zip.length).toBe(preview.zipBytes);
    const entries = unzipSync(zip);
    expect(Object.keys(entries)).toEqual(preview.files.map((file) => file.name));
    for (const file of preview.files) expect(entries[file.name]!.length).toBe(file.bytes);
    expect(strFromU8(entries['logs/recent.log']!)).toContain('[redacted-email]');
    // Every alert of the environment in the app-wide bundle.
    expect(strFromU8(entries['alerts.json']!)).toContain('"other"');
  });

  it('refuses a plant bundle while signed out, and a bundle it no longer keeps', async () => {
    let id = 0;
    const service = createSupportBundleService({ ...base, newId: () => `id-${++id}` });
    await expect(service.prepare({ plantUuid: PLANT_UUID })).rejects.toMatchObject({
      kind: 'signedOut',
    });
    for (let index = 0; index < 4; index++) await service.prepare({});
    expect(() => service.download('id-1')).toThrow(/no longer kept/);
    expect(service.download('id-4').fileName).toMatch(/\.zip$/);
    // Browser mode has no save dialog.
    await expect(service.save('id-4')).rejects.toMatchObject({ kind: 'invalidArguments' });
  });

  it('hands the zip to the host to save', async () => {
    const save = vi.fn(async () => ({ saved: true, path: '/x.zip' }));
    const service = createSupportBundleService({ ...base, save, newId: () => 'id' });
    const preview = await service.prepare({});
    expect(await service.save('id')).toEqual({ saved: true, path: '/x.zip' });
    expect(save).toHaveBeenCalledWith(preview.fileName, expect.any(Uint8Array));
  });
});

describe('support bundle saver and log tail', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('writes where the user chose, adding .zip, 0600, and never over a file it was not asked about', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-bundle-'));
    let chosen: string | undefined = path.join(dir, 'bundle');
    const showSaveDialog = vi.fn(async (_window: object, _options: SaveDialogOptions) => ({
      canceled: chosen === undefined,
      filePath: chosen,
    }));
    const save = createBundleSaver({
      window: () => ({}),
      showSaveDialog,
      defaultDirectory: () => dir,
      t: () => createTranslator('en'),
    });
    const result = await save('plantdesk-support-app.zip', new Uint8Array([1, 2, 3]));
    expect(result).toEqual({ saved: true, path: path.join(dir, 'bundle.zip') });
    expect(showSaveDialog.mock.calls[0]![1]).toMatchObject({
      defaultPath: path.join(dir, 'plantdesk-support-app.zip'),
      filters: [{ extensions: ['zip'] }],
    });
    expect([...fs.readFileSync(path.join(dir, 'bundle.zip'))]).toEqual([1, 2, 3]);
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(dir, 'bundle.zip')).mode & 0o777).toBe(0o600);
    }
    await expect(save('a.zip', new Uint8Array([4]))).rejects.toThrow(/already exists/);
    chosen = undefined;
    expect(await save('a.zip', new Uint8Array([4]))).toEqual({ saved: false });
  });

  it('reads the newest lines of the log folder, oldest first', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-logs-'));
    fs.writeFileSync(path.join(dir, 'main.1.log'), 'old 1\nold 2\n');
    fs.utimesSync(path.join(dir, 'main.1.log'), AT, AT);
    fs.writeFileSync(path.join(dir, 'main.log'), 'new 1\nnew 2\n');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a log\n');
    expect(recentLogLines(dir, 3)).toEqual(['old 2', 'new 1', 'new 2']);
    expect(recentLogLines(path.join(dir, 'missing'))).toEqual([]);
    expect(recentLogLines(undefined)).toEqual([]);
  });
});
