/**
 * The shapes of an environment comparison: what each environment's plant is reduced to before
 * it is compared (a snapshot: no uuids, which differ between environments, and no secrets), and
 * what the comparison answers.
 */

export type FieldValue =
  null | boolean | number | string | FieldValue[] | { [key: string]: FieldValue };

/**
 * Where a secret setting stands: whether it holds a value, never the value. The snapshot is
 * made with this in place of anything secret, so a secret is never compared in clear.
 */
export interface SecretState {
  [key: string]: FieldValue;
  secret: 'set' | 'unset';
}

/**
 * The identifiers an item may be found by in the other environment, tried in this order: a
 * device's serial number, an external id (metadata `externalId`), a vendor's code, the name.
 */
export const MATCH_KEYS = ['serialNumber', 'externalId', 'code', 'name'] as const;
export type MatchKey = (typeof MATCH_KEYS)[number];

/** A device, sensor or vendor configuration as compared. */
export interface SnapshotItem {
  label: string;
  keys: Partial<Record<MatchKey, string | null>>;
  fields: Record<string, FieldValue>;
}

export interface PlantSnapshot {
  plant: Record<string, FieldValue>;
  devices: SnapshotItem[];
  sensors: SnapshotItem[];
  vendors: SnapshotItem[];
}

/** `added`: only in the right (other) environment; `removed`: only in the left one. */
export type ChangeStatus = 'same' | 'changed' | 'added' | 'removed';

export interface FieldDiff {
  field: string;
  status: ChangeStatus;
  /** Absent when the field is absent on that side. */
  left?: FieldValue;
  right?: FieldValue;
}

export interface EntryDiff {
  status: ChangeStatus;
  leftLabel: string | null;
  rightLabel: string | null;
  /** The key the two were matched by; null when the item is on one side only. */
  matchedBy: MatchKey | null;
  fields: FieldDiff[];
}

export const SECTIONS = ['devices', 'sensors', 'vendors'] as const;
export type Section = (typeof SECTIONS)[number];

export type ChangeCounts = Record<ChangeStatus, number>;

export interface PlantDiff {
  plant: FieldDiff[];
  devices: EntryDiff[];
  sensors: EntryDiff[];
  vendors: EntryDiff[];
  counts: ChangeCounts;
}
