import { isDeepStrictEqual } from 'node:util';
import type { Draft, DraftContent } from '../../ipc/contract.ts';

/** Plain JSON, so that an absent field and one set to undefined compare the same. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown;
const same = (a: unknown, b: unknown) => isDeepStrictEqual(plain(a), plain(b));

/**
 * What a save would change of the draft's entries the server already holds: each in words, none
 * when the save leaves them as they were. A sent entry changed (or removed) in the draft would
 * silently differ from the server's, since a send never creates it again; the server's own
 * screens change it there.
 */
export function changesToSent(previous: Draft, next: DraftContent): string[] {
  const { sent, content } = previous;
  const changes: string[] = [];
  if (sent.plantUuid !== null && !same(content.plant, next.plant)) {
    changes.push(`the plant '${content.plant.name}'`);
  }
  const entries = [
    ['device', content.devices, next.devices, sent.devices],
    ['sensor', content.sensors, next.sensors, sent.sensors],
  ] as const;
  for (const [what, before, after, sentKeys] of entries) {
    for (const entry of before) {
      if (sentKeys[entry.key] === undefined) continue;
      const now = after.find((candidate) => candidate.key === entry.key);
      if (!same(entry, now)) changes.push(`${what} '${entry.name}'`);
    }
  }
  for (const vendor of content.vendors) {
    if (sent.vendors[vendor.vendorUuid] === undefined) continue;
    const now = next.vendors.find((candidate) => candidate.vendorUuid === vendor.vendorUuid);
    if (!same(vendor, now)) changes.push(`the settings of vendor ${vendor.vendorUuid}`);
  }
  return changes;
}
