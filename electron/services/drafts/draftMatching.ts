import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { DraftContent, DraftDevice, DraftSensor } from '../../ipc/contract.ts';

/**
 * Is what the server holds under a draft's identity (the plant's external id, a device's or
 * sensor's name within the plant) what the draft describes? A send that was interrupted after
 * the server created something finds it again and adopts it; anything else of that identity is
 * a conflict the user settles. Each function answers the draft fields that differ (none: same).
 * Only what the draft says is compared: a field it leaves to the server's default is not.
 */

/** Coordinates and settings go through JSON and a database column: equal within rounding. */
function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function sameValue(draft: unknown, server: unknown): boolean {
  if (typeof draft === 'number' && typeof server === 'number') return sameNumber(draft, server);
  if (typeof draft === 'string' && typeof server === 'string')
    return draft.trim() === server.trim();
  return (draft ?? null) === (server ?? null);
}

export function plantDifferences(draft: DraftContent['plant'], server: Plant): string[] {
  const differences: string[] = [];
  if (!sameValue(draft.name, server.name)) differences.push('name');
  const missing = (draft.externalIds ?? []).filter((id) => !server.externalIds.includes(id));
  if (missing.length > 0) differences.push('externalIds');
  for (const field of ['latitude', 'longitude', 'timezone'] as const) {
    if (!sameValue(draft.location[field], server.location[field])) {
      differences.push(`location.${field}`);
    }
  }
  if (
    draft.location.altitudeM !== undefined &&
    !sameValue(draft.location.altitudeM, server.location.altitudeM)
  ) {
    differences.push('location.altitudeM');
  }
  if (draft.pv !== undefined) {
    if (draft.pv === null || server.pv === null) {
      if (draft.pv !== server.pv) differences.push('pv');
    } else {
      for (const field of ['peakPowerKw', 'tiltDeg', 'azimuthDeg', 'lossesPercent'] as const) {
        if (!sameValue(draft.pv[field], server.pv[field])) differences.push(`pv.${field}`);
      }
    }
  }
  return differences;
}

const OPTIONAL_DEVICE_FIELDS = [
  'vendorUuid',
  'model',
  'serialNumber',
  'ratedPowerW',
  'loadSignatureUuid',
] as const;

export function deviceDifferences(draft: DraftDevice, server: Device): string[] {
  const differences: string[] = [];
  if (draft.deviceTypeUuid !== server.deviceTypeUuid) differences.push('deviceTypeUuid');
  for (const field of OPTIONAL_DEVICE_FIELDS) {
    if (draft[field] !== undefined && !sameValue(draft[field], server[field])) {
      differences.push(field);
    }
  }
  return differences;
}

/** `deviceUuid`: what the draft's `deviceKey` stands for on the server (null: no device). */
export function sensorDifferences(
  draft: DraftSensor,
  server: Sensor,
  deviceUuid: string | null,
): string[] {
  const differences: string[] = [];
  if (draft.sensorTypeUuid !== server.sensorTypeUuid) differences.push('sensorTypeUuid');
  if (deviceUuid !== server.deviceUuid) differences.push('deviceKey');
  if (draft.flow !== undefined && draft.flow !== server.flow) differences.push('flow');
  if (
    draft.samplingIntervalSeconds !== undefined &&
    draft.samplingIntervalSeconds !== server.samplingIntervalSeconds
  ) {
    differences.push('samplingIntervalSeconds');
  }
  if (draft.dataTypesCollectUuids !== undefined) {
    const wanted = [...new Set(draft.dataTypesCollectUuids)].sort();
    const held = [...server.dataTypesCollectUuids].sort();
    if (wanted.join() !== held.join()) differences.push('dataTypesCollectUuids');
  }
  if (draft.connection !== undefined) {
    const same =
      draft.connection === null
        ? server.connection === null
        : server.connection !== null &&
          draft.connection.vendorUuid === server.connection.vendorUuid &&
          sameValue(draft.connection.address, server.connection.address);
    if (!same) differences.push('connection');
  }
  return differences;
}
