import { describe, expect, test } from 'vitest';
import type { Draft, DraftRefusal } from '../../../electron/ipc/contract.ts';
import {
  draftAsResources,
  draftState,
  neededSecrets,
  newKey,
  refusalOnField,
  refusalsOf,
  secretId,
  secretsInput,
} from '../../../renderer/src/composables/draftContent.ts';

/** The drafts' pure helpers: states, keys, refusals by entry and field, secrets, the report's view. */

const VENDOR = '44444444-4444-4444-8444-444444444444';
const OTHER_VENDOR = '55555555-5555-4555-8555-555555555555';

const refusal = (overrides: Partial<DraftRefusal>): DraftRefusal => ({
  section: 'sensors',
  kind: 'refused',
  message: 'refused',
  ...overrides,
});

describe('draftState', () => {
  test('a refusal makes an unsent or partly sent draft "refused"; a sent one stays sent', () => {
    expect(draftState({ status: 'notSent', refusals: [] })).toBe('notSent');
    expect(draftState({ status: 'partlySent', refusals: [] })).toBe('partlySent');
    expect(draftState({ status: 'partlySent', refusals: [refusal({})] })).toBe('refused');
    expect(draftState({ status: 'notSent', refusals: [refusal({ section: 'plant' })] })).toBe(
      'refused',
    );
    expect(draftState({ status: 'sent', refusals: [] })).toBe('sent');
  });
});

describe('newKey', () => {
  test('never reuses a key, even after a removal left a gap', () => {
    expect(newKey('sensor', [])).toBe('sensor-1');
    expect(newKey('sensor', [{ key: 'sensor-1' }, { key: 'sensor-2' }])).toBe('sensor-3');
    expect(newKey('sensor', [{ key: 'sensor-2' }])).toBe('sensor-3');
    expect(newKey('device', [{ key: 'device-3' }, { key: 'device-2' }])).toBe('device-4');
  });
});

describe('refusals', () => {
  const refusals = [
    refusal({ key: 'sensor-1', field: 'connection.address', message: 'No answer' }),
    refusal({ key: 'sensor-2', field: 'name', message: 'Taken' }),
    refusal({ section: 'plant', field: 'location.timezone', message: 'Unknown zone' }),
  ];

  test('are found by entry, and by field (a nested field belongs to its parent field)', () => {
    expect(refusalsOf(refusals, 'sensors', 'sensor-1').map((entry) => entry.message)).toEqual([
      'No answer',
    ]);
    expect(refusalsOf(refusals, 'plant').map((entry) => entry.message)).toEqual(['Unknown zone']);
    expect(refusalOnField(refusals, 'sensors', 'sensor-1', 'connection')).toBe('No answer');
    expect(refusalOnField(refusals, 'sensors', 'sensor-1', 'name')).toBeNull();
    expect(refusalOnField(refusals, 'plant', undefined, 'location.timezone')).toBe('Unknown zone');
    expect(refusalOnField(refusals, 'sensors', 'sensor-2', 'connection')).toBeNull();
  });
});

describe('secrets', () => {
  const draft = {
    content: {
      plant: { name: 'P', location: { latitude: 0, longitude: 0, timezone: 'UTC' } },
      devices: [],
      sensors: [],
      vendors: [
        { vendorUuid: VENDOR, settings: {}, secretFields: ['apiKey', 'password'] },
        { vendorUuid: OTHER_VENDOR, settings: {}, secretFields: ['token'] },
      ],
    },
    sent: { plantUuid: null, devices: {}, sensors: {}, vendors: { [OTHER_VENDOR]: 'x' } },
  } as unknown as Pick<Draft, 'content' | 'sent'>;

  test('only those of vendors not configured yet are asked; empty ones are left out', () => {
    const needed = neededSecrets(draft);
    expect(needed).toEqual([
      { vendorUuid: VENDOR, field: 'apiKey' },
      { vendorUuid: VENDOR, field: 'password' },
    ]);
    expect(
      secretsInput(
        { [secretId(VENDOR, 'apiKey')]: 'k', [secretId(VENDOR, 'password')]: '' },
        needed,
      ),
    ).toEqual({ [VENDOR]: { apiKey: 'k' } });
  });
});

describe('draftAsResources', () => {
  test('links sensors to their devices by key, and names unknown catalog entries as missing', () => {
    const resources = draftAsResources(
      {
        createdAt: '2026-11-20T10:00:00Z',
        updatedAt: '2026-11-20T10:00:00Z',
        sent: { plantUuid: null, devices: {}, sensors: {}, vendors: {} },
        content: {
          plant: { name: 'P', location: { latitude: 1, longitude: 2, timezone: 'UTC' } },
          devices: [{ key: 'd', name: 'Inverter', deviceTypeUuid: VENDOR }],
          sensors: [
            { key: 's', name: 'PV', sensorTypeUuid: VENDOR, deviceKey: 'd' },
            { key: 't', name: 'Grid', sensorTypeUuid: VENDOR },
          ],
          vendors: [],
        },
      },
      { sensorTypes: [], dataTypes: [], deviceTypes: [], vendors: [] },
    );
    expect(resources.plant.pv).toBeNull();
    expect(resources.devices[0]!.relationships!.sensors.map((sensor) => sensor.name)).toEqual([
      'PV',
    ]);
    expect(resources.sensors[0]!.deviceUuid).toBe(resources.devices[0]!.deviceUuid);
    expect(resources.sensors[1]!.deviceUuid).toBeNull();
    expect(resources.sensors[0]!.relationships!.sensorType.name).toBe('—');
  });
});
