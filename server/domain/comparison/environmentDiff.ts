import { canonical, matchItems } from './matching.ts';
import type {
  ChangeCounts,
  ChangeStatus,
  EntryDiff,
  FieldDiff,
  FieldValue,
  PlantDiff,
  PlantSnapshot,
  SecretState,
  SnapshotItem,
} from './types.ts';

/**
 * The comparison of one plant in two environments (left: the one the user works in, right: the
 * other): plant settings field by field, and devices, sensors and vendor configurations matched
 * as `matchItems` documents, each added, removed, changed or the same. Pure: the main process
 * makes the snapshots (without uuids or secrets) and the renderer shows the result.
 */

export function compareFields(
  left: Record<string, FieldValue> | null,
  right: Record<string, FieldValue> | null,
): FieldDiff[] {
  const names = [...new Set([...Object.keys(left ?? {}), ...Object.keys(right ?? {})])].sort();
  return names.map((field) => {
    const hasLeft = left !== null && Object.hasOwn(left, field);
    const hasRight = right !== null && Object.hasOwn(right, field);
    const diff: FieldDiff = { field, status: 'same' };
    if (hasLeft) diff.left = left[field]!;
    if (hasRight) diff.right = right[field]!;
    if (!hasRight) diff.status = 'removed';
    else if (!hasLeft) diff.status = 'added';
    else if (canonical(left[field]) !== canonical(right[field])) diff.status = 'changed';
    return diff;
  });
}

function entryOf(
  left: SnapshotItem | null,
  right: SnapshotItem | null,
  matchedBy: EntryDiff['matchedBy'],
): EntryDiff {
  const fields = compareFields(left?.fields ?? null, right?.fields ?? null);
  const status: ChangeStatus = !right
    ? 'removed'
    : !left
      ? 'added'
      : fields.some((field) => field.status !== 'same')
        ? 'changed'
        : 'same';
  return {
    status,
    leftLabel: left?.label ?? null,
    rightLabel: right?.label ?? null,
    matchedBy,
    fields,
  };
}

/** Alphabetical by the entry's names, whichever side they are on, so either order reads alike. */
function sortKey(entry: EntryDiff): string {
  const names = [entry.leftLabel, entry.rightLabel]
    .filter((label): label is string => label !== null)
    .map((label) => label.toLowerCase())
    .sort();
  return names.join('\u0000');
}

function compareSection(
  left: readonly SnapshotItem[],
  right: readonly SnapshotItem[],
): EntryDiff[] {
  const entries = matchItems(left, right).map((match) =>
    entryOf(match.left, match.right, match.matchedBy),
  );
  return entries
    .map((entry) => ({ entry, key: sortKey(entry) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ entry }) => entry);
}

function countsOf(diff: Omit<PlantDiff, 'counts'>): ChangeCounts {
  const counts: ChangeCounts = { same: 0, changed: 0, added: 0, removed: 0 };
  for (const field of diff.plant) counts[field.status] += 1;
  for (const entry of [...diff.devices, ...diff.sensors, ...diff.vendors]) {
    counts[entry.status] += 1;
  }
  return counts;
}

export function comparePlants(left: PlantSnapshot, right: PlantSnapshot): PlantDiff {
  const diff = {
    plant: compareFields(left.plant, right.plant),
    devices: compareSection(left.devices, right.devices),
    sensors: compareSection(left.sensors, right.sensors),
    vendors: compareSection(left.vendors, right.vendors),
  };
  return { ...diff, counts: countsOf(diff) };
}

/** Everything that differs: plant fields and entries that are not the same. */
export function differencesOf(diff: PlantDiff): { plant: FieldDiff[]; entries: EntryDiff[] } {
  return {
    plant: diff.plant.filter((field) => field.status !== 'same'),
    entries: [...diff.devices, ...diff.sensors, ...diff.vendors].filter(
      (entry) => entry.status !== 'same',
    ),
  };
}

export function hasDifferences(diff: PlantDiff): boolean {
  return diff.counts.changed + diff.counts.added + diff.counts.removed > 0;
}

export function secretState(set: boolean): SecretState {
  return { secret: set ? 'set' : 'unset' };
}

export function isSecretState(value: FieldValue | undefined): value is SecretState {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    (value.secret === 'set' || value.secret === 'unset')
  );
}
