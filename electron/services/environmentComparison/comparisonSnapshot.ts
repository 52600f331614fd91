import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import {
  secretState,
  type FieldValue,
  type PlantSnapshot,
  type SnapshotItem,
} from '../../../server/domain/comparison/index.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { allPages } from '../monitor/monitorSources.ts';

/**
 * What a plant is compared by, read from one environment with the specification's routes only
 * (plant, devices and sensors with their relationships, configured vendors). Uuids differ
 * between environments, so catalog references become their codes and a sensor's device its
 * serial number (or name). Nothing secret enters the snapshot: secret vendor fields, metadata
 * entries named like secrets and passwords in connection addresses are reduced to whether they
 * are set, here, before anything is compared or leaves the main process.
 */

/** Metadata keys whose values are treated as secrets (`apiKey`, `mqtt_password`, `token`…). */
const SECRET_NAME =
  /pass(word)?|secret|token|api[-_]?key|private[-_]?key|credential|authori[sz]ation/i;

function isSet(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

function masked(record: Record<string, unknown>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(record)) {
    if (SECRET_NAME.test(key)) out[key] = secretState(isSet(value));
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = masked(value as Record<string, unknown>);
    } else out[key] = value as FieldValue;
  }
  return out;
}

/** `modbus://user:pw@host` → the password replaced: only whether one is there is compared. */
export function maskedAddress(address: string): string {
  try {
    const url = new URL(address);
    if (!url.password) return address;
    url.password = '***';
    return url.href;
  } catch {
    return address;
  }
}

function externalIdOf(metadata: Record<string, unknown>): string | null {
  const value = metadata.externalId;
  return typeof value === 'string' ? value : null;
}

/** Metadata entry by entry (`metadata:<key>`), so that one changed entry is one changed row. */
function metadataFields(metadata: Record<string, unknown>): Record<string, FieldValue> {
  const fields: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(masked(metadata))) fields[`metadata:${key}`] = value;
  return fields;
}

/** Location and PV settings field by field: a moved plant shows which coordinate changed. */
export function plantFields(plant: Plant): Record<string, FieldValue> {
  const { latitude, longitude, timezone, altitudeM } = plant.location;
  return {
    name: plant.name,
    externalIds: [...plant.externalIds].sort(),
    latitude,
    longitude,
    timezone,
    ...(altitudeM !== undefined && altitudeM !== null && { altitudeM }),
    ...(plant.pv && { ...plant.pv }),
    ...metadataFields(plant.metadata),
  };
}

export function deviceItem(device: Device): SnapshotItem {
  const relationships = device.relationships;
  return {
    label: device.name,
    keys: {
      serialNumber: device.serialNumber,
      externalId: externalIdOf(device.metadata),
      name: device.name,
    },
    fields: {
      name: device.name,
      deviceType: relationships?.deviceType.code ?? device.deviceTypeUuid,
      vendor: relationships?.vendor?.code ?? null,
      model: device.model,
      serialNumber: device.serialNumber,
      ratedPowerW: device.ratedPowerW,
      loadSignature: relationships?.loadSignature?.code ?? null,
      ...metadataFields(device.metadata),
    },
  };
}

export function sensorItem(sensor: Sensor, vendorCodes: ReadonlyMap<string, string>): SnapshotItem {
  const relationships = sensor.relationships;
  const device = relationships?.device ?? null;
  return {
    label: sensor.name,
    keys: { externalId: externalIdOf(sensor.metadata), name: sensor.name },
    fields: {
      name: sensor.name,
      sensorType: relationships?.sensorType.code ?? sensor.sensorTypeUuid,
      dataTypes: (relationships?.dataTypesCollects.map((type) => type.code) ?? []).sort(),
      flow: sensor.flow,
      // A server with only the specification's routes leaves it out: absent means false.
      signInverted: sensor.signInverted ?? false,
      samplingIntervalSeconds: sensor.samplingIntervalSeconds,
      connection: sensor.connection
        ? {
            vendor: vendorCodes.get(sensor.connection.vendorUuid) ?? sensor.connection.vendorUuid,
            address: maskedAddress(sensor.connection.address),
          }
        : null,
      device: device ? (device.serialNumber ?? device.name) : null,
      ...metadataFields(sensor.metadata),
    },
  };
}

export function vendorItem(vendor: PlantVendor): SnapshotItem {
  const fields: Record<string, FieldValue> = { name: vendor.name, kind: vendor.kind };
  const secretFields = new Set(
    vendor.configSchema.fields
      .filter((field) => field.type === 'secret')
      .map((field) => field.name),
  );
  for (const [name, value] of Object.entries(vendor.settings ?? {})) {
    // A server that answered a secret after all: it is still compared only as set.
    fields[`setting:${name}`] =
      secretFields.has(name) || SECRET_NAME.test(name) ? secretState(isSet(value)) : value;
  }
  for (const name of secretFields) {
    fields[`secret:${name}`] = secretState(
      vendor.secretFieldsSet.includes(name) || isSet(vendor.settings?.[name]),
    );
    delete fields[`setting:${name}`];
  }
  return { label: vendor.name, keys: { code: vendor.code, name: vendor.name }, fields };
}

/** Reads one plant of one environment and reduces it to its snapshot. */
export async function readPlantSnapshot(
  client: ApiClient,
  plant: Plant,
  signal?: AbortSignal,
): Promise<PlantSnapshot> {
  const options = { signal };
  const params = { plantUuid: plant.plantUuid };
  const list = { size: PAGE_SIZE_MAX, includeRelationships: true };
  const [devices, sensors, vendors] = await Promise.all([
    allPages((page) => client.listDevices({ params, query: { ...list, page } }, options)),
    allPages((page) => client.listSensors({ params, query: { ...list, page } }, options)),
    allPages((page) =>
      // Without a mode: every vendor, configured or not, so that a sensor's connection finds
      // the code of a vendor the plant has not configured.
      client.listPlantVendors({ params, query: { size: PAGE_SIZE_MAX, page } }, options),
    ),
  ]);
  const vendorCodes = new Map<string, string>();
  for (const vendor of vendors) vendorCodes.set(vendor.vendorUuid, vendor.code);
  for (const device of devices) {
    const vendor = device.relationships?.vendor;
    if (vendor) vendorCodes.set(vendor.vendorUuid, vendor.code);
  }
  return {
    plant: plantFields(plant),
    devices: devices.map(deviceItem),
    sensors: sensors.map((sensor) => sensorItem(sensor, vendorCodes)),
    vendors: vendors.filter((vendor) => vendor.configured).map(vendorItem),
  };
}
