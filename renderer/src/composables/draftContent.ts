import type { Plant } from '../../../api/schemas/plants.ts';
import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { Vendor } from '../../../api/schemas/vendors.ts';
import type {
  Draft,
  DraftContent,
  DraftRefusal,
  DraftSection,
} from '../../../electron/ipc/contract.ts';
import type { Translate } from '../../../i18n/translator.ts';

/**
 * Pure helpers of the commissioning drafts (issue 14, without a connection): what a draft's
 * state is called, which refusals concern an entry, which secrets a send needs, and the draft
 * seen as the server's resources so the report can show it before anything exists there.
 */

export type DraftState = 'notSent' | 'partlySent' | 'refused' | 'sent';

/** A draft the server refused something of is "refused" until a send gets everything through. */
export function draftState(draft: Pick<Draft, 'status' | 'refusals'>): DraftState {
  if (draft.status === 'sent') return 'sent';
  if (draft.refusals.length > 0) return 'refused';
  return draft.status;
}

/** What a state is called: `drafts.states.<state>`, worded at render. */
export const draftStateKey = (state: DraftState) => `drafts.states.${state}`;

/** A key no entry of the list has yet: `sensor-1`, `sensor-2`… (keys never change once given). */
export function newKey(prefix: string, taken: Iterable<{ key: string }>): string {
  const keys = new Set([...taken].map((entry) => entry.key));
  let index = keys.size + 1;
  while (keys.has(`${prefix}-${index}`)) index += 1;
  return `${prefix}-${index}`;
}

/** The refusals of one entry (the plant when `key` is absent), in the order the send met them. */
export function refusalsOf(
  refusals: readonly DraftRefusal[],
  section: DraftSection,
  key?: string,
): DraftRefusal[] {
  return refusals.filter((refusal) => refusal.section === section && refusal.key === key);
}

/** The refusal on one field of an entry: what its form shows under that field. */
export function refusalOnField(
  refusals: readonly DraftRefusal[],
  section: DraftSection,
  key: string | undefined,
  field: string,
): string | null {
  const found = refusalsOf(refusals, section, key).find(
    (refusal) => refusal.field === field || refusal.field?.startsWith(`${field}.`),
  );
  return found ? found.message : null;
}

export interface NeededSecret {
  vendorUuid: string;
  field: string;
}

/** The secret settings a send asks for: those of vendors the server has not configured yet. */
export function neededSecrets(draft: Pick<Draft, 'content' | 'sent'>): NeededSecret[] {
  return draft.content.vendors
    .filter((vendor) => draft.sent.vendors[vendor.vendorUuid] === undefined)
    .flatMap((vendor) =>
      vendor.secretFields.map((field) => ({ vendorUuid: vendor.vendorUuid, field })),
    );
}

/** The typed secrets as `drafts.send` takes them, without empty ones (those stay "needed"). */
export function secretsInput(
  typed: Readonly<Record<string, string>>,
  needed: readonly NeededSecret[],
): Record<string, Record<string, string>> {
  const secrets: Record<string, Record<string, string>> = {};
  for (const { vendorUuid, field } of needed) {
    const value = typed[secretId(vendorUuid, field)];
    if (!value) continue;
    (secrets[vendorUuid] ??= {})[field] = value;
  }
  return secrets;
}

export const secretId = (vendorUuid: string, field: string) => `${vendorUuid}/${field}`;

/** What the drafts list and the send panel call an entry of a refusal. */
export function refusalSubject(refusal: DraftRefusal, content: DraftContent, t: Translate): string {
  switch (refusal.section) {
    case 'plant':
      return t('drafts.subjects.plant', { name: content.plant.name });
    case 'devices': {
      const device = content.devices.find((entry) => entry.key === refusal.key);
      return t('drafts.subjects.device', { name: device?.name ?? refusal.key ?? '' }).trim();
    }
    case 'sensors': {
      const sensor = content.sensors.find((entry) => entry.key === refusal.key);
      return t('drafts.subjects.sensor', { name: sensor?.name ?? refusal.key ?? '' }).trim();
    }
    case 'vendors':
      return t('drafts.subjects.vendors');
  }
}

export interface DraftCatalogs {
  sensorTypes: readonly SensorType[];
  dataTypes: readonly DataTypesCollect[];
  deviceTypes: readonly DeviceType[];
  vendors: readonly Vendor[];
}

/** Stand-in identifiers of what the server has not created yet: the report shows the draft. */
const DRAFT_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The draft as the report's plant, devices and sensors, their catalog names looked up in the
 * catalogs known (an unknown type shows as missing, not as an error).
 */
export function draftAsResources(
  draft: Pick<Draft, 'content' | 'createdAt' | 'updatedAt' | 'sent'>,
  catalogs: DraftCatalogs,
): { plant: Plant; devices: Device[]; sensors: Sensor[] } {
  const { content } = draft;
  const deviceUuid = (key: string) => draft.sent.devices[key] ?? `draft-device-${key}`;
  const sensorTypes = new Map(catalogs.sensorTypes.map((type) => [type.sensorTypeUuid, type]));
  const deviceTypes = new Map(catalogs.deviceTypes.map((type) => [type.deviceTypeUuid, type]));
  const vendors = new Map(catalogs.vendors.map((vendor) => [vendor.vendorUuid, vendor]));
  const dataTypes = new Map(catalogs.dataTypes.map((type) => [type.dataTypesCollectUuid, type]));
  const plant: Plant = {
    plantUuid: draft.sent.plantUuid ?? DRAFT_UUID,
    name: content.plant.name,
    externalIds: content.plant.externalIds ?? [],
    location: content.plant.location,
    pv: content.plant.pv ?? null,
    metadata: content.plant.metadata ?? {},
    createdAt: draft.createdAt,
    updatedAt: draft.updatedAt,
  };
  const devices = content.devices.map((device) => {
    const type = deviceTypes.get(device.deviceTypeUuid);
    const vendor = device.vendorUuid ? vendors.get(device.vendorUuid) : undefined;
    return {
      deviceUuid: deviceUuid(device.key),
      plantUuid: plant.plantUuid,
      name: device.name,
      deviceTypeUuid: device.deviceTypeUuid,
      vendorUuid: device.vendorUuid ?? null,
      model: device.model ?? null,
      serialNumber: device.serialNumber ?? null,
      ratedPowerW: device.ratedPowerW ?? null,
      loadSignatureUuid: device.loadSignatureUuid ?? null,
      metadata: device.metadata ?? {},
      createdAt: draft.createdAt,
      updatedAt: draft.updatedAt,
      relationships: {
        deviceType: type ? { ...type } : { deviceTypeUuid: device.deviceTypeUuid, name: '—' },
        vendor: vendor ?? null,
        sensors: content.sensors
          .filter((sensor) => sensor.deviceKey === device.key)
          .map((sensor) => ({ name: sensor.name })),
      },
    } as unknown as Device;
  });
  const sensors = content.sensors.map((sensor) => {
    const type = sensorTypes.get(sensor.sensorTypeUuid);
    const collected = sensor.dataTypesCollectUuids ?? type?.dataTypesCollectUuids ?? [];
    const device = content.devices.find((entry) => entry.key === sensor.deviceKey);
    return {
      sensorUuid: draft.sent.sensors[sensor.key] ?? `draft-sensor-${sensor.key}`,
      plantUuid: plant.plantUuid,
      deviceUuid: device ? deviceUuid(device.key) : null,
      name: sensor.name,
      sensorTypeUuid: sensor.sensorTypeUuid,
      dataTypesCollectUuids: collected,
      flow: sensor.flow ?? 'CONSUMPTION',
      samplingIntervalSeconds: sensor.samplingIntervalSeconds ?? 60,
      connection: sensor.connection ?? null,
      metadata: sensor.metadata ?? {},
      createdAt: draft.createdAt,
      updatedAt: draft.updatedAt,
      relationships: {
        sensorType: type ? { ...type } : { sensorTypeUuid: sensor.sensorTypeUuid, name: '—' },
        dataTypesCollects: collected.flatMap((uuid) => dataTypes.get(uuid) ?? []),
        device: device ? { name: device.name } : null,
      },
    } as unknown as Sensor;
  });
  return { plant, devices, sensors };
}
