import { describe, expect, test } from 'vitest';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import {
  deviceItem,
  maskedAddress,
  plantFields,
  sensorItem,
  vendorItem,
} from '../../../electron/services/environmentComparison/comparisonSnapshot.ts';

/**
 * What leaves an environment for the comparison: codes instead of uuids (which differ between
 * environments), and nothing secret, even where a server answers more than it should.
 */

const T = '2026-06-01T10:00:00Z';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the snapshot of a plant', () => {
  test('plant settings field by field, without uuids or timestamps; secret-looking metadata only as set', () => {
    const plant: Plant = {
      plantUuid: uuid(1),
      name: 'Demo Home',
      externalIds: ['B', 'A'],
      location: { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' },
      pv: null,
      metadata: { address: 'Via 1', gateway: { mqttPassword: 'hunter2', host: 'gw' }, apiKey: '' },
      createdAt: T,
      updatedAt: T,
    };
    expect(plantFields(plant)).toEqual({
      name: 'Demo Home',
      externalIds: ['A', 'B'],
      latitude: 46.5,
      longitude: 11.35,
      timezone: 'Europe/Rome',
      'metadata:address': 'Via 1',
      'metadata:gateway': { mqttPassword: { secret: 'set' }, host: 'gw' },
      'metadata:apiKey': { secret: 'unset' },
    });
    const withPv = plantFields({
      ...plant,
      pv: { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
    });
    expect(withPv).toMatchObject({ peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180 });
    expect(JSON.stringify(withPv)).not.toContain('hunter2');
  });

  test('a device by its catalog codes, found by serial number or metadata external id', () => {
    const device: Device = {
      deviceUuid: uuid(2),
      plantUuid: uuid(1),
      name: 'Inverter',
      deviceTypeUuid: uuid(3),
      vendorUuid: uuid(4),
      model: 'X',
      serialNumber: 'INV-1',
      ratedPowerW: 8000,
      loadSignatureUuid: null,
      metadata: { externalId: 'EXT-9' },
      createdAt: T,
      updatedAt: T,
      relationships: {
        deviceType: {
          deviceTypeUuid: uuid(3),
          code: 'INVERTER',
          name: 'Inverter',
          category: 'PRODUCER',
        } as never,
        sensors: [],
        loadSignature: null,
        vendor: { vendorUuid: uuid(4), code: 'FRONIUS' } as never,
      },
    };
    const item = deviceItem(device);
    expect(item.keys).toEqual({ serialNumber: 'INV-1', externalId: 'EXT-9', name: 'Inverter' });
    expect(item.fields).toMatchObject({ deviceType: 'INVERTER', vendor: 'FRONIUS' });
    expect(JSON.stringify(item)).not.toContain(uuid(3));
  });

  test("a sensor names its device by serial number and its connection's vendor by code", () => {
    const sensor: Sensor = {
      sensorUuid: uuid(5),
      plantUuid: uuid(1),
      deviceUuid: uuid(2),
      name: 'PV',
      sensorTypeUuid: uuid(6),
      dataTypesCollectUuids: [uuid(7), uuid(8)],
      flow: 'PRODUCTION',
      samplingIntervalSeconds: 60,
      connection: { vendorUuid: uuid(4), address: 'modbus://admin:s3cret@10.0.0.5:502/1' },
      metadata: {},
      createdAt: T,
      updatedAt: T,
      relationships: {
        device: { serialNumber: 'INV-1', name: 'Inverter' } as never,
        sensorType: { code: 'POWER_METER' } as never,
        dataTypesCollects: [{ code: 'POWER' }, { code: 'ENERGY' }] as never,
      },
    };
    const item = sensorItem(sensor, new Map([[uuid(4), 'FRONIUS']]));
    expect(item.fields).toMatchObject({
      sensorType: 'POWER_METER',
      dataTypes: ['ENERGY', 'POWER'],
      signInverted: false,
      device: 'INV-1',
      connection: { vendor: 'FRONIUS', address: 'modbus://admin:***@10.0.0.5:502/1' },
    });
    expect(JSON.stringify(item)).not.toContain('s3cret');
    expect(maskedAddress('sim://demo-home/pv')).toBe('sim://demo-home/pv');
  });

  test('vendor secrets only as set or not, even when a server answers their values', () => {
    const vendor: PlantVendor = {
      vendorUuid: uuid(4),
      code: 'SOLAREDGE',
      name: 'SolarEdge monitoring',
      kind: 'PLATFORM',
      configSchema: {
        fields: [
          { name: 'siteId', label: 'Site ID', type: 'string', required: true },
          { name: 'apiKey', label: 'API key', type: 'secret', required: true },
          { name: 'webhookSecret', label: 'Webhook', type: 'secret', required: false },
        ],
      },
      configured: true,
      // A careless server: the secret's value in the settings.
      settings: { siteId: '4711', apiKey: 'leaked-value-123' },
      secretFieldsSet: [],
      configuredAt: T,
    };
    const item = vendorItem(vendor);
    expect(item.fields).toEqual({
      name: 'SolarEdge monitoring',
      kind: 'PLATFORM',
      'setting:siteId': '4711',
      'secret:apiKey': { secret: 'set' },
      'secret:webhookSecret': { secret: 'unset' },
    });
    expect(JSON.stringify(item)).not.toContain('leaked-value-123');
  });
});
