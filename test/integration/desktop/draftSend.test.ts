import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DraftContent, type DraftContentInput } from '../../../electron/ipc/contract.ts';
import { createApiClient } from '../../../electron/services/api/apiClient.ts';
import {
  createNodeTransport,
  type FetchTransport,
} from '../../../electron/services/api/transport.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import {
  createDraftService,
  type DraftService,
} from '../../../electron/services/drafts/draftService.ts';
import { createDraftStore, ownerOf } from '../../../electron/services/drafts/draftStore.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * Sending a commissioning draft through the host's API client to the real server over loopback:
 * in workflow order, exactly once however often it is sent or interrupted, adopting what an
 * earlier attempt created, and with what the server refuses on its field.
 */

let server: TestServer;
let token: string;
let deviceTypes: Record<string, string>;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;
let vendors: Record<string, string>;

beforeAll(async () => {
  server = await TestServer.start();
  token = await server.tokenFor('installer');
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  vendors = await server.catalog('/vendors', 'vendorUuid');
});

afterAll(async () => {
  await server?.close();
});

const OWNER = ownerOf('local', 'installer@plantdesk.test');
const SECRET = 'solaredge-api-key-0042';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newDataDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'plantdesk-draft-send-'));
  folders.push(folder);
  return folder;
}

/** What went over the wire, as `POST /plants/…/devices`, in order. */
interface Wire {
  writes: string[];
  /** Makes the answer of the n-th device create (1-based) get lost: the server did create it. */
  loseDeviceAnswer?: number;
}

function wiredFetch(wire: Wire): FetchTransport {
  const transport = createNodeTransport();
  let deviceCreates = 0;
  return async (url, init) => {
    const response = await transport(url, init);
    const path = new URL(url).pathname.replace(/[0-9a-f-]{36}/g, '{uuid}');
    if (init.method !== 'GET') wire.writes.push(`${init.method} ${path}`);
    if (init.method === 'POST' && path.endsWith('/devices')) {
      deviceCreates += 1;
      if (deviceCreates === wire.loseDeviceAnswer) {
        await response.body?.cancel();
        const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        throw new TypeError('fetch failed', { cause });
      }
    }
    return response;
  };
}

/** A host over `dataDir`, signed in as the installer: a new one is a restart of the app. */
function host(dataDir: string, wire: Wire = { writes: [] }, locale?: AppLocale): DraftService {
  const client = createApiClient({
    baseUrl: server.url,
    credentials: { token: async () => token, renewAfter401: async () => false },
    fetch: wiredFetch(wire),
  });
  return createDraftService({
    store: createDraftStore(dataDir),
    owner: () => OWNER,
    ...(locale && { t: () => createTranslator(locale) }),
    clientFor(owner) {
      // The service asks for the draft's own environment and account, and nothing else.
      expect(owner).toEqual(OWNER);
      return client;
    },
  });
}

function roof(externalId: string): DraftContentInput {
  return {
    plant: {
      name: `Roof ${externalId}`,
      externalIds: [externalId],
      location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
      pv: { peakPowerKw: 6.2, tiltDeg: 25, azimuthDeg: 170 },
    },
    devices: [
      {
        key: 'inverter',
        name: 'Inverter',
        deviceTypeUuid: deviceTypes.INVERTER!,
        ratedPowerW: 6000,
      },
      { key: 'battery', name: 'Battery', deviceTypeUuid: deviceTypes.BATTERY! },
      {
        key: 'meter',
        name: 'Grid meter',
        deviceTypeUuid: deviceTypes.METER!,
        serialNumber: 'GM-1',
      },
    ],
    sensors: [
      {
        key: 'pv',
        name: 'PV power',
        sensorTypeUuid: sensorTypes.POWER_METER!,
        flow: 'PRODUCTION',
        deviceKey: 'inverter',
        connection: { vendorUuid: vendors.SIMULATOR!, address: `sim://${externalId}/pv` },
      },
      {
        key: 'soc',
        name: 'Battery state of charge',
        sensorTypeUuid: sensorTypes.BATTERY_MONITOR!,
        dataTypesCollectUuids: [dataTypes.STATE_OF_CHARGE!],
        flow: 'STORAGE',
        deviceKey: 'battery',
      },
      {
        key: 'grid',
        name: 'Grid power',
        sensorTypeUuid: sensorTypes.POWER_METER!,
        flow: 'GRID',
        deviceKey: 'meter',
      },
      {
        key: 'outdoor',
        name: 'Outdoor temperature',
        sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR!,
      },
    ],
    vendors: [
      { vendorUuid: vendors.SOLAREDGE!, settings: { siteId: '4711' }, secretFields: ['apiKey'] },
    ],
  };
}

let serial = 0;
const uniqueId = (label: string) => `${label}-${process.pid}-${(serial += 1)}`;

/** The server's plants with this external id, each with its devices', sensors' and vendors' names. */
async function onServer(externalId: string) {
  const plants = await server.request('GET', '/plants', {
    token,
    query: { externalIds: externalId },
  });
  return Promise.all(
    (plants.body.content as { plantUuid: string; name: string }[]).map(async (plant) => {
      const names = async (path: string, query: Record<string, string | number> = {}) =>
        (
          await server.request('GET', `/plants/${plant.plantUuid}${path}`, {
            token,
            query: { size: 200, ...query },
          })
        ).body.content
          .map((item: { name: string }) => item.name)
          .sort();
      return {
        plantUuid: plant.plantUuid,
        name: plant.name,
        devices: await names('/devices'),
        sensors: await names('/sensors'),
        vendors: await names('/vendors', { mode: 'config' }),
      };
    }),
  );
}

const ALL_DEVICES = ['Battery', 'Grid meter', 'Inverter'];
const ALL_SENSORS = ['Battery state of charge', 'Grid power', 'Outdoor temperature', 'PV power'];

function draftFileText(dataDir: string): string {
  const root = join(dataDir, 'drafts');
  return readdirSync(root)
    .flatMap((owner) => readdirSync(join(root, owner)).map((name) => join(root, owner, name)))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

describe('sending a draft', () => {
  test('creates plant, devices, sensors and vendor settings in that order; sending again creates nothing', async () => {
    const externalId = uniqueId('ROOF');
    const dataDir = newDataDir();
    const wire: Wire = { writes: [] };
    const drafts = host(dataDir, wire);
    const draft = drafts.save({ content: DraftContent.parse(roof(externalId)) });
    expect(draft.status).toBe('notSent');

    const result = await drafts.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(result.outcome, result.message).toBe('sent');
    expect(result.draft.status).toBe('sent');
    expect(result.draft.refusals).toEqual([]);
    expect(wire.writes).toEqual([
      'POST /plants',
      ...Array(3).fill('POST /plants/{uuid}/devices'),
      ...Array(4).fill('POST /plants/{uuid}/sensors'),
      'PUT /plants/{uuid}/vendors/{uuid}',
    ]);
    const [plant, ...others] = await onServer(externalId);
    expect(others).toEqual([]);
    expect(plant).toMatchObject({
      plantUuid: result.draft.sent.plantUuid,
      devices: ALL_DEVICES,
      sensors: ALL_SENSORS,
      vendors: ['SolarEdge monitoring'],
    });
    // The sensors hang on their devices.
    const sensors = await server.request('GET', `/plants/${plant!.plantUuid}/sensors`, { token });
    const pv = sensors.body.content.find((sensor: { name: string }) => sensor.name === 'PV power');
    expect(pv.deviceUuid).toBe(result.draft.sent.devices.inverter);
    // The secret went to the server and nowhere on disk.
    expect(draftFileText(dataDir)).not.toContain(SECRET);

    wire.writes.length = 0;
    const again = await host(dataDir, wire).send(draft.draftId);
    expect(again.outcome).toBe('sent');
    expect(wire.writes).toEqual([]);
    expect(await onServer(externalId)).toEqual([plant]);
  });

  test('interrupted after the plant and one device, then sent again after a restart: each exists once', async () => {
    const externalId = uniqueId('ROOF');
    const dataDir = newDataDir();
    // The second device is created on the server, but its answer never arrives.
    const drafts = host(dataDir, { writes: [], loseDeviceAnswer: 2 });
    const draft = drafts.save({ content: DraftContent.parse(roof(externalId)) });
    const first = await drafts.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(first.outcome).toBe('interrupted');
    expect(first.message).toMatch(/send again/);
    expect(first.draft.status).toBe('partlySent');
    expect(first.draft.sent.plantUuid).not.toBeNull();
    expect(Object.keys(first.draft.sent.devices)).toEqual(['inverter']);
    expect(first.draft.sent.sensors).toEqual({});

    // A restart: a new host over the same folder finds the draft and what it recorded.
    const wire: Wire = { writes: [] };
    const restarted = host(dataDir, wire);
    expect(restarted.get(draft.draftId)).toEqual(first.draft);
    const second = await restarted.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(second.outcome, second.message).toBe('sent');
    // The battery (created, answer lost) was found by its name, not created again.
    expect(wire.writes).toEqual([
      'POST /plants/{uuid}/devices',
      ...Array(4).fill('POST /plants/{uuid}/sensors'),
      'PUT /plants/{uuid}/vendors/{uuid}',
    ]);
    const plants = await onServer(externalId);
    expect(plants).toEqual([
      expect.objectContaining({
        plantUuid: first.draft.sent.plantUuid,
        devices: ALL_DEVICES,
        sensors: ALL_SENSORS,
      }),
    ]);
  });

  test('a 409 on the external id of the same plant resolves to it', async () => {
    const externalId = uniqueId('ROOF');
    const content = roof(externalId);
    // An earlier send created the plant, but its answer was lost before the draft recorded it.
    const earlier = await server.request('POST', '/plants', { token, body: content.plant });
    expect(earlier.status).toBe(201);
    const drafts = host(newDataDir());
    const draft = drafts.save({ content: DraftContent.parse(content) });
    const result = await drafts.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(result.outcome, result.message).toBe('sent');
    expect(result.draft.sent.plantUuid).toBe(earlier.body.plantUuid);
    expect(await onServer(externalId)).toEqual([
      expect.objectContaining({ plantUuid: earlier.body.plantUuid, devices: ALL_DEVICES }),
    ]);
  });

  test('a 409 on the external id of a different plant is a conflict, and nothing is created', async () => {
    const externalId = uniqueId('ROOF');
    const content = roof(externalId);
    const other = await server.request('POST', '/plants', {
      token,
      body: { ...content.plant, name: 'Somebody else’s barn' },
    });
    expect(other.status).toBe(201);
    const wire: Wire = { writes: [] };
    const drafts = host(newDataDir(), wire);
    const draft = drafts.save({ content: DraftContent.parse(content) });
    const result = await drafts.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(result.outcome).toBe('refused');
    expect(result.message).toBe('The server refused the plant: nothing was created.');
    expect(result.draft.status).toBe('notSent');
    expect(result.draft.refusals).toEqual([
      expect.objectContaining({ section: 'plant', field: 'externalIds', kind: 'conflict' }),
    ]);
    expect(result.draft.refusals[0]!.message).toMatch(/Somebody else’s barn.*name/);
    expect(wire.writes).toEqual(['POST /plants']);
    // Worded in the user's language at the moment of the send; the plant's name as it is.
    const german = host(newDataDir(), { writes: [] }, 'de');
    const again = await german.send(german.save({ content: DraftContent.parse(content) }).draftId);
    expect(again.message).toBe('Der Server hat die Anlage abgelehnt: Es wurde nichts angelegt.');
    expect(again.draft.refusals[0]!.message).toMatch(
      /^Der Server hat bereits eine Anlage mit dieser externen ID, „Somebody else’s barn“, die sich vom Entwurf unterscheidet in: .*name/,
    );
    expect(await onServer(externalId)).toEqual([
      {
        plantUuid: other.body.plantUuid,
        name: 'Somebody else’s barn',
        devices: [],
        sensors: [],
        vendors: [],
      },
    ]);
  });

  test('a refused sensor (422) is reported on its field, the rest is created, and the corrected draft completes', async () => {
    const externalId = uniqueId('ROOF');
    const content = roof(externalId);
    // A power meter does not measure temperature.
    content.sensors![2] = {
      ...content.sensors![2]!,
      dataTypesCollectUuids: [dataTypes.TEMPERATURE!],
    };
    const drafts = host(newDataDir());
    const draft = drafts.save({ content: DraftContent.parse(content) });
    // And the vendor's secret is not typed again this time.
    const result = await drafts.send(draft.draftId);
    expect(result.outcome).toBe('refused');
    expect(result.draft.status).toBe('partlySent');
    expect(result.draft.refusals).toEqual([
      expect.objectContaining({
        section: 'sensors',
        key: 'grid',
        field: 'dataTypesCollectUuids',
        kind: 'refused',
        status: 422,
      }),
      expect.objectContaining({
        section: 'vendors',
        key: vendors.SOLAREDGE,
        field: 'apiKey',
        kind: 'secretNeeded',
      }),
    ]);
    expect(await onServer(externalId)).toEqual([
      expect.objectContaining({
        devices: ALL_DEVICES,
        sensors: ALL_SENSORS.filter((name) => name !== 'Grid power'),
        vendors: [],
      }),
    ]);

    const corrected = roof(externalId);
    drafts.save({ draftId: draft.draftId, content: DraftContent.parse(corrected) });
    const final = await drafts.send(draft.draftId, {
      secrets: { [vendors.SOLAREDGE!]: { apiKey: SECRET } },
    });
    expect(final.outcome, final.message).toBe('sent');
    expect(final.draft.refusals).toEqual([]);
    expect(await onServer(externalId)).toEqual([
      expect.objectContaining({
        devices: ALL_DEVICES,
        sensors: ALL_SENSORS,
        vendors: ['SolarEdge monitoring'],
      }),
    ]);
  });
});
