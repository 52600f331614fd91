import { fieldForMessage, fieldForPath } from '../../../api/errorFields.ts';
import type { DraftRefusal, DraftSection } from '../../ipc/contract.ts';
import { ApiError } from '../api/apiError.ts';

/**
 * What the server refuses of a draft, on the draft field it concerns. The API's error body names
 * no field: its message does (`Invalid body field 'location.latitude': …`, `serialNumber 'X' is
 * already used…`, `Setting 'apiKey' of vendor … is required`), and is read for it.
 */

/** The fields of each part of a draft, as `DraftRefusal.field` names them. */
export const DRAFT_FIELDS = {
  plant: [
    'name',
    'externalIds',
    'location.latitude',
    'location.longitude',
    'location.timezone',
    'location.altitudeM',
    'location',
    'pv.peakPowerKw',
    'pv.tiltDeg',
    'pv.azimuthDeg',
    'pv.lossesPercent',
    'pv',
    'metadata',
  ],
  devices: [
    'name',
    'deviceTypeUuid',
    'vendorUuid',
    'model',
    'serialNumber',
    'ratedPowerW',
    'loadSignatureUuid',
    'metadata',
  ],
  sensors: [
    'name',
    'sensorTypeUuid',
    'dataTypesCollectUuids',
    'deviceKey',
    'flow',
    'samplingIntervalSeconds',
    'connection.vendorUuid',
    'connection.address',
    'connection',
    'metadata',
  ],
} as const satisfies Record<Exclude<DraftSection, 'vendors'>, readonly string[]>;

/** The server speaks of the device by uuid; the draft links it by key. */
const SERVER_ALIASES: Record<string, string> = { deviceUuid: 'deviceKey' };

/**
 * The field a message is about, the earliest it names: by its path (`location.latitude`), its
 * last segment (`timezone must be…` → `location.timezone`) or the server's name for it.
 */
export function draftFieldOf(message: string, fields: readonly string[]): string | undefined {
  const spoken = new Map<string, string>();
  for (const field of fields) spoken.set(field, field);
  for (const field of fields) {
    const leaf = field.split('.').at(-1) ?? field;
    if (!spoken.has(leaf)) spoken.set(leaf, field);
  }
  for (const [alias, field] of Object.entries(SERVER_ALIASES)) {
    if (fields.includes(field)) spoken.set(alias, field);
  }
  const found = fieldForMessage(message, [...spoken.keys()]);
  return found === undefined ? undefined : spoken.get(found);
}

/** Statuses that refuse this one thing; anything else stops the send (it may succeed later). */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 403, 409, 422]);

export function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.kind === 'api' &&
    error.status !== undefined &&
    REFUSAL_STATUSES.has(error.status)
  );
}

/** The draft's field a server's field path names (its own, or the server's name for it). */
export function draftFieldOfPath(path: string, fields: readonly string[]): string | undefined {
  const alias = SERVER_ALIASES[path];
  if (alias !== undefined && fields.includes(alias)) return alias;
  return fieldForPath(path, fields);
}

/**
 * One refusal per field the server lists (`errors`, our server's extension), else per detail of
 * its message: a 400 lists several, separated by "; ".
 */
export function refusalsOf(
  error: ApiError,
  where: { section: DraftSection; key?: string },
  fields: readonly string[],
): DraftRefusal[] {
  const refusal = (message: string, field: string | undefined): DraftRefusal => ({
    ...where,
    ...(field !== undefined && { field }),
    kind: 'refused',
    message,
    ...(error.status !== undefined && { status: error.status }),
  });
  if (error.fieldErrors !== undefined && error.fieldErrors.length > 0) {
    return error.fieldErrors.map(({ field, message }) =>
      refusal(message, draftFieldOfPath(field, fields)),
    );
  }
  const details = error.status === 400 ? error.message.split('; ').filter(Boolean) : [];
  return (details.length > 0 ? details : [error.message]).map((message) =>
    refusal(message, draftFieldOf(message, fields)),
  );
}
