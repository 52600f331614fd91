import { MATCH_KEYS, type FieldValue, type MatchKey, type SnapshotItem } from './types.ts';

/**
 * Which device (sensor, vendor) of one environment is which of the other. Uuids differ between
 * environments, so items are found by what a person would recognise them by, in this order:
 *
 * 1. serial number (devices), 2. external id (`metadata.externalId`), 3. vendor code, 4. name
 *    (trimmed, case and width folded).
 *
 * At each key, a value held by exactly one unmatched item on each side pairs them. Where a value
 * is shared by several items on a side (two "Wallbox" sensors), identical items are paired with
 * each other first; what is still ambiguous waits for the next key. Items left at the end that
 * share a name are paired in a fixed order of their content. Every step treats both sides alike,
 * so swapping the environments swaps the pairs and nothing else.
 */

export interface Match {
  left: SnapshotItem | null;
  right: SnapshotItem | null;
  matchedBy: MatchKey | null;
}

export function canonical(value: FieldValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

function contentOf(item: SnapshotItem): string {
  return canonical({ label: item.label, keys: item.keys, fields: item.fields } as FieldValue);
}

function keyValue(item: SnapshotItem, key: MatchKey): string | null {
  const raw = item.keys[key];
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  if (trimmed === '') return null;
  return key === 'name' ? trimmed.normalize('NFKC').toLowerCase() : trimmed;
}

function groupBy(items: readonly SnapshotItem[], key: MatchKey): Map<string, SnapshotItem[]> {
  const groups = new Map<string, SnapshotItem[]>();
  for (const item of items) {
    const value = keyValue(item, key);
    if (value === null) continue;
    const group = groups.get(value);
    if (group) group.push(item);
    else groups.set(value, [item]);
  }
  return groups;
}

const byContent = (a: SnapshotItem, b: SnapshotItem): number => {
  const x = contentOf(a);
  const y = contentOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Pairs identical items of a group; the leftovers of both sides are returned in content order. */
function pairIdentical(
  lefts: SnapshotItem[],
  rights: SnapshotItem[],
  key: MatchKey,
  matches: Match[],
): { lefts: SnapshotItem[]; rights: SnapshotItem[] } {
  const restLeft: SnapshotItem[] = [];
  const restRight = [...rights].sort(byContent);
  for (const left of [...lefts].sort(byContent)) {
    const content = contentOf(left);
    const index = restRight.findIndex((right) => contentOf(right) === content);
    if (index === -1) {
      restLeft.push(left);
      continue;
    }
    matches.push({ left, right: restRight[index]!, matchedBy: key });
    restRight.splice(index, 1);
  }
  return { lefts: restLeft, rights: restRight };
}

export function matchItems(
  lefts: readonly SnapshotItem[],
  rights: readonly SnapshotItem[],
): Match[] {
  const matches: Match[] = [];
  let openLeft = new Set(lefts);
  let openRight = new Set(rights);
  for (const key of MATCH_KEYS) {
    const lastKey = key === MATCH_KEYS[MATCH_KEYS.length - 1];
    const leftGroups = groupBy([...openLeft], key);
    const rightGroups = groupBy([...openRight], key);
    for (const [value, leftGroup] of leftGroups) {
      const rightGroup = rightGroups.get(value);
      if (!rightGroup) continue;
      const rest = pairIdentical(leftGroup, rightGroup, key, matches);
      const pairs =
        rest.lefts.length === 1 && rest.rights.length === 1
          ? 1
          : lastKey
            ? Math.min(rest.lefts.length, rest.rights.length)
            : 0;
      for (let i = 0; i < pairs; i++) {
        matches.push({ left: rest.lefts[i]!, right: rest.rights[i]!, matchedBy: key });
      }
    }
    const paired = new Set(matches.flatMap((match) => [match.left, match.right]));
    openLeft = new Set([...openLeft].filter((item) => !paired.has(item)));
    openRight = new Set([...openRight].filter((item) => !paired.has(item)));
  }
  for (const left of [...openLeft].sort(byContent)) {
    matches.push({ left, right: null, matchedBy: null });
  }
  for (const right of [...openRight].sort(byContent)) {
    matches.push({ left: null, right, matchedBy: null });
  }
  return matches;
}
