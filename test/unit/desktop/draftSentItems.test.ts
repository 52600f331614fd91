import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  DraftContent,
  type Draft,
  type DraftContentInput,
} from '../../../electron/ipc/contract.ts';
import {
  createDraftService,
  type DraftService,
} from '../../../electron/services/drafts/draftService.ts';
import { createDraftStore, ownerOf } from '../../../electron/services/drafts/draftStore.ts';
import { HostError } from '../../../electron/services/hostError.ts';

/**
 * Editing a partly-sent draft: what the server holds (the plant, a device, a sensor, a vendor's
 * settings) stays as it was sent, what it does not hold is edited, added or removed freely.
 */

const TYPE = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';
const OWNER = ownerOf('local', 'installer@example.test');

const content = (): DraftContent =>
  DraftContent.parse({
    plant: {
      name: 'Roof 2',
      location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
    },
    devices: [
      { key: 'inverter', name: 'Inverter', deviceTypeUuid: TYPE },
      { key: 'meter', name: 'Meter', deviceTypeUuid: TYPE },
    ],
    sensors: [
      { key: 'pv', name: 'PV power', sensorTypeUuid: TYPE, deviceKey: 'inverter' },
      { key: 'grid', name: 'Grid', sensorTypeUuid: TYPE, deviceKey: 'meter' },
    ],
    vendors: [{ vendorUuid: TYPE, settings: { site: 'roof' }, secretFields: [] }],
  } satisfies DraftContentInput);

let dataDir: string;
let service: DraftService;
let draft: Draft;
let store: ReturnType<typeof createDraftStore>;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-draft-sent-'));
  store = createDraftStore(dataDir);
  service = createDraftService({
    store,
    owner: () => OWNER,
    clientFor: () => {
      throw new HostError('signedOut', 'offline in this test');
    },
    now: () => new Date('2026-11-18T09:00:00Z'),
  });
  const saved = service.save({ content: content() });
  // As a send interrupted after the inverter and its sensor were created.
  store.write(OWNER, {
    ...saved,
    status: 'partlySent',
    sent: {
      plantUuid: '3f1c2b4a-0d9e-4c8b-a7f6-5e4d3c2b1a09',
      devices: { inverter: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
      sensors: { pv: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
      vendors: {},
    },
  });
  draft = service.get(saved.draftId);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function refusal(change: (content: DraftContent) => void): string {
  const next = structuredClone(draft.content);
  change(next);
  try {
    service.save({ draftId: draft.draftId, content: next });
  } catch (error) {
    expect(error).toBeInstanceOf(HostError);
    return (error as HostError).message;
  }
  throw new Error('the save was not refused');
}

test('entries not yet sent are edited, added and removed; what was sent stays recorded', () => {
  const next = structuredClone(draft.content);
  next.sensors[1]!.name = 'Grid connection';
  next.devices[1]!.serialNumber = 'MTR-2';
  next.sensors.push({ ...next.sensors[1]!, key: 'load', name: 'Load', deviceKey: null });
  const saved = service.save({ draftId: draft.draftId, content: next });
  expect(saved.content.sensors.map((sensor) => sensor.name)).toEqual([
    'PV power',
    'Grid connection',
    'Load',
  ]);
  expect(saved.sent.sensors).toEqual(draft.sent.sensors);
  expect(saved.status).toBe('partlySent');

  const fewer = structuredClone(saved.content);
  fewer.sensors = fewer.sensors.filter((sensor) => sensor.key !== 'load');
  fewer.devices = fewer.devices.filter((device) => device.key !== 'meter');
  fewer.sensors[1]!.deviceKey = null;
  expect(service.save({ draftId: draft.draftId, content: fewer }).content.devices).toHaveLength(1);
});

test('a sent sensor, device or plant is not changed in the draft, nor removed from it', () => {
  expect(refusal((next) => void (next.sensors[0]!.name = 'PV'))).toContain("sensor 'PV power'");
  expect(refusal((next) => void (next.sensors[0]!.deviceKey = 'meter'))).toContain(
    "sensor 'PV power'",
  );
  expect(refusal((next) => void next.devices.shift())).toContain("device 'Inverter'");
  expect(refusal((next) => void (next.plant.name = 'Roof 3'))).toContain("the plant 'Roof 2'");
  expect(service.get(draft.draftId).content).toEqual(draft.content);
});

test('a vendor’s settings are edited until the server took them, then kept as sent', () => {
  const next = structuredClone(draft.content);
  next.vendors[0]!.settings = { site: 'basement' };
  const edited = service.save({ draftId: draft.draftId, content: next });
  expect(edited.content.vendors[0]!.settings).toEqual({ site: 'basement' });

  store.write(OWNER, {
    ...edited,
    sent: { ...edited.sent, vendors: { [TYPE]: edited.updatedAt } },
  });
  draft = service.get(draft.draftId);
  expect(refusal((content) => void (content.vendors[0]!.settings = { site: 'roof' }))).toContain(
    `the settings of vendor ${TYPE}`,
  );
});
