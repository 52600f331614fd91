import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  comparePlants,
  differencesOf,
  hasDifferences,
  matchItems,
  secretState,
  type EntryDiff,
  type FieldValue,
  type PlantDiff,
  type PlantSnapshot,
  type SnapshotItem,
} from '../../../server/domain/comparison/index.ts';

const device = (
  name: string,
  serialNumber: string | null,
  fields: Record<string, FieldValue> = {},
): SnapshotItem => ({
  label: name,
  keys: { serialNumber, name },
  fields: { name, serialNumber, model: 'M1', ratedPowerW: 8000, ...fields },
});

const sensor = (name: string, externalId: string | null = null, fields = {}): SnapshotItem => ({
  label: name,
  keys: { externalId, name },
  fields: { name, flow: 'PRODUCTION', samplingIntervalSeconds: 60, ...fields },
});

const snapshot = (overrides: Partial<PlantSnapshot> = {}): PlantSnapshot => ({
  plant: { name: 'Demo Home', externalIds: ['DEMO-1'], pv: { peakPowerKw: 8.4 } },
  devices: [device('Rooftop inverter', 'INV-1'), device('Home battery', 'BAT-1')],
  sensors: [sensor('PV production'), sensor('Grid exchange')],
  vendors: [
    {
      label: 'Acme Cloud',
      keys: { code: 'ACME', name: 'Acme Cloud' },
      fields: { 'setting:siteId': 'S-1', 'secret:apiKey': secretState(true) },
    },
  ],
  ...overrides,
});

describe('matching devices and sensors across environments', () => {
  test('a device is found by its serial number even when renamed', () => {
    const [match] = matchItems(
      [device('Rooftop inverter', 'INV-1')],
      [device('Inverter (roof)', 'INV-1')],
    );
    expect(match).toMatchObject({ matchedBy: 'serialNumber' });
    expect(match!.left?.label).toBe('Rooftop inverter');
    expect(match!.right?.label).toBe('Inverter (roof)');
  });

  test('then by external id, then by code, then by name (trimmed, any case)', () => {
    const matches = matchItems(
      [sensor('PV', 'EXT-7'), sensor('Grid exchange'), device('Battery', null)],
      [sensor('PV production', 'EXT-7'), sensor('  grid EXCHANGE '), device('battery', null)],
    );
    expect(matches.map((match) => [match.left?.label, match.matchedBy])).toEqual([
      ['PV', 'externalId'],
      ['Grid exchange', 'name'],
      ['Battery', 'name'],
    ]);
  });

  test('a serial number on one side only does not keep a same-named device from matching', () => {
    const [match] = matchItems([device('Wallbox', null)], [device('Wallbox', 'EV-1')]);
    expect(match).toMatchObject({ matchedBy: 'name' });
  });

  test('two sensors of the same name pair identical ones first, the rest in a fixed order', () => {
    const left = [
      sensor('Meter', null, { flow: 'GRID' }),
      sensor('Meter', null, { flow: 'CONSUMPTION' }),
    ];
    const right = [
      sensor('Meter', null, { flow: 'CONSUMPTION' }),
      sensor('Meter', null, { flow: 'PRODUCTION' }),
    ];
    const matches = matchItems(left, right);
    expect(matches).toHaveLength(2);
    const identical = matches.find((match) => match.left?.fields.flow === 'CONSUMPTION');
    expect(identical?.right?.fields.flow).toBe('CONSUMPTION');
    const other = matches.find((match) => match.left?.fields.flow === 'GRID');
    expect(other?.right?.fields.flow).toBe('PRODUCTION');
  });

  test('an item without a counterpart stays alone', () => {
    const matches = matchItems([device('Heat pump', 'HP-1')], [device('Wallbox', 'EV-1')]);
    expect(matches.map((match) => [match.left?.label ?? null, match.right?.label ?? null])).toEqual(
      [
        ['Heat pump', null],
        [null, 'Wallbox'],
      ],
    );
  });
});

describe('comparing a plant in two environments', () => {
  test('a plant compared with itself has no differences', () => {
    const diff = comparePlants(snapshot(), snapshot());
    expect(hasDifferences(diff)).toBe(false);
    expect(differencesOf(diff)).toEqual({ plant: [], entries: [] });
    expect(diff.counts).toEqual({ same: 3 + 2 + 2 + 1, changed: 0, added: 0, removed: 0 });
  });

  test('plant settings, a changed device, an added and a removed sensor', () => {
    const sandbox = snapshot({
      plant: { name: 'Demo Home', externalIds: ['DEMO-1'], pv: { peakPowerKw: 9.1 } },
      devices: [
        device('Rooftop inverter', 'INV-1', { ratedPowerW: 10000 }),
        device('Home battery', 'BAT-1'),
      ],
      sensors: [sensor('PV production'), sensor('Heat pump power')],
    });
    const diff = comparePlants(snapshot(), sandbox);
    expect(differencesOf(diff).plant).toEqual([
      { field: 'pv', status: 'changed', left: { peakPowerKw: 8.4 }, right: { peakPowerKw: 9.1 } },
    ]);
    const inverter = diff.devices.find((entry) => entry.leftLabel === 'Rooftop inverter')!;
    expect(inverter).toMatchObject({ status: 'changed', matchedBy: 'serialNumber' });
    expect(inverter.fields.filter((field) => field.status !== 'same')).toEqual([
      { field: 'ratedPowerW', status: 'changed', left: 8000, right: 10000 },
    ]);
    expect(diff.sensors.map((entry) => [entry.status, entry.leftLabel, entry.rightLabel])).toEqual([
      ['removed', 'Grid exchange', null],
      ['added', null, 'Heat pump power'],
      ['same', 'PV production', 'PV production'],
    ]);
    expect(diff.counts).toEqual({ same: 2 + 1 + 1 + 1, changed: 2, added: 1, removed: 1 });
  });

  test('a secret is compared by whether it is set, never by value', () => {
    const unset = snapshot({
      vendors: [
        {
          label: 'Acme Cloud',
          keys: { code: 'ACME', name: 'Acme Cloud' },
          fields: { 'setting:siteId': 'S-1', 'secret:apiKey': secretState(false) },
        },
      ],
    });
    const [vendor] = comparePlants(snapshot(), unset).vendors;
    expect(vendor!.fields.find((field) => field.field === 'secret:apiKey')).toEqual({
      field: 'secret:apiKey',
      status: 'changed',
      left: { secret: 'set' },
      right: { secret: 'unset' },
    });
  });

  test('a field present on one side only is added or removed', () => {
    const diff = comparePlants(
      snapshot({ plant: { name: 'Demo Home' } }),
      snapshot({ plant: { name: 'Demo Home', altitudeM: 262 } }),
    );
    expect(diff.plant).toEqual([
      { field: 'altitudeM', status: 'added', right: 262 },
      { field: 'name', status: 'same', left: 'Demo Home', right: 'Demo Home' },
    ]);
  });
});

// ── Properties ────────────────────────────────────────────────────────────────────────────────

const value: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('a', 'b', 'A', ' a'),
  fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
  fc.constantFrom(secretState(true), secretState(false)),
);
const fields = fc.dictionary(fc.constantFrom('name', 'model', 'flow', 'metadata'), value, {
  maxKeys: 3,
});
const item: fc.Arbitrary<SnapshotItem> = fc.record({
  label: fc.constantFrom('Meter', 'meter', 'Inverter', 'Battery'),
  keys: fc.record(
    {
      serialNumber: fc.option(fc.constantFrom('S1', 'S2', 'S3'), { nil: null }),
      externalId: fc.option(fc.constantFrom('E1', 'E2'), { nil: null }),
      name: fc.constantFrom('Meter', 'meter ', 'Inverter', 'Battery'),
    },
    { requiredKeys: ['name'] },
  ),
  fields,
});
const plantSnapshot: fc.Arbitrary<PlantSnapshot> = fc.record({
  plant: fields,
  devices: fc.array(item, { maxLength: 5 }),
  sensors: fc.array(item, { maxLength: 5 }),
  vendors: fc.array(item, { maxLength: 3 }),
});

const SWAPPED = { same: 'same', changed: 'changed', added: 'removed', removed: 'added' } as const;

function mirrored(entry: EntryDiff): EntryDiff {
  return {
    status: SWAPPED[entry.status],
    leftLabel: entry.rightLabel,
    rightLabel: entry.leftLabel,
    matchedBy: entry.matchedBy,
    fields: entry.fields.map((field) => {
      const swapped: EntryDiff['fields'][number] = {
        field: field.field,
        status: SWAPPED[field.status],
      };
      if ('right' in field) swapped.left = field.right;
      if ('left' in field) swapped.right = field.left;
      return swapped;
    }),
  };
}

/** Order-free form of a section: entries are compared as a multiset. */
const asSet = (entries: EntryDiff[]) => entries.map((entry) => JSON.stringify(entry)).sort();

function expectMirror(forward: PlantDiff, backward: PlantDiff): void {
  expect(backward.plant).toEqual(
    mirrored({
      status: 'same',
      leftLabel: null,
      rightLabel: null,
      matchedBy: null,
      fields: forward.plant,
    }).fields,
  );
  for (const section of ['devices', 'sensors', 'vendors'] as const) {
    expect(asSet(backward[section])).toEqual(asSet(forward[section].map(mirrored)));
  }
  expect(backward.counts).toEqual({
    same: forward.counts.same,
    changed: forward.counts.changed,
    added: forward.counts.removed,
    removed: forward.counts.added,
  });
}

describe('properties of the comparison', () => {
  test('a plant compared with itself has no differences, whatever it holds', () => {
    fc.assert(
      fc.property(plantSnapshot, (x) => {
        const diff = comparePlants(x, structuredClone(x));
        expect(hasDifferences(diff)).toBe(false);
        expect(diff.counts.same).toBe(
          Object.keys(x.plant).length + x.devices.length + x.sensors.length + x.vendors.length,
        );
      }),
    );
  });

  test('comparing the other way round swaps added and removed, and nothing else', () => {
    fc.assert(
      fc.property(plantSnapshot, plantSnapshot, (x, y) => {
        expectMirror(comparePlants(x, y), comparePlants(y, x));
      }),
    );
  });

  test('every item appears exactly once, on its side', () => {
    fc.assert(
      fc.property(plantSnapshot, plantSnapshot, (x, y) => {
        const diff = comparePlants(x, y);
        for (const section of ['devices', 'sensors', 'vendors'] as const) {
          const lefts = diff[section].filter((entry) => entry.leftLabel !== null).length;
          const rights = diff[section].filter((entry) => entry.rightLabel !== null).length;
          expect([lefts, rights]).toEqual([x[section].length, y[section].length]);
        }
      }),
    );
  });
});
