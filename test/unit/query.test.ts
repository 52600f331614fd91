import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  booleanParam,
  includeRelationshipsShape,
  listQueryShape,
  parseSort,
  sortParam,
  stringListParam,
  uuidListParam,
  uuidParam,
} from '../../api/schemas/query.ts';

const SORTABLE = ['name', 'createdAt', 'updatedAt'] as const;
const listQuery = z.object({
  ...listQueryShape(SORTABLE),
  ...includeRelationshipsShape,
  plantUuids: uuidListParam('plantUuids'),
  externalIds: stringListParam(),
  deviceUuid: uuidParam('deviceUuid'),
});

const UUID_A = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';
const UUID_B = '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f';

function issuesOf(input: unknown): string[] {
  const result = listQuery.safeParse(input);
  expect(result.success, JSON.stringify(input)).toBe(false);
  return result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('parseSort (Spring syntax)', () => {
  test.each([
    { input: ['name'], expected: [{ property: 'name', direction: 'asc' }] },
    { input: ['name,desc'], expected: [{ property: 'name', direction: 'desc' }] },
    { input: ['name,asc'], expected: [{ property: 'name', direction: 'asc' }] },
    { input: ['name,DESC'], expected: [{ property: 'name', direction: 'desc' }] },
    { input: [' name , desc '], expected: [{ property: 'name', direction: 'desc' }] },
    {
      input: ['name,createdAt,asc'],
      expected: [
        { property: 'name', direction: 'asc' },
        { property: 'createdAt', direction: 'asc' },
      ],
    },
    {
      input: ['name,createdAt,desc'],
      expected: [
        { property: 'name', direction: 'desc' },
        { property: 'createdAt', direction: 'desc' },
      ],
    },
    {
      input: ['name,desc', 'createdAt'],
      expected: [
        { property: 'name', direction: 'desc' },
        { property: 'createdAt', direction: 'asc' },
      ],
    },
    { input: [], expected: [] },
    { input: [''], expected: [] },
    { input: ['desc'], expected: [] },
    { input: [',,name,,'], expected: [{ property: 'name', direction: 'asc' }] },
  ])('$input → $expected', ({ input, expected }) => {
    expect(parseSort(input)).toEqual(expected);
  });
});

describe('sortParam', () => {
  const sort = z.object({ sort: sortParam(SORTABLE) });

  test('accepts one value or a repeated parameter, in order', () => {
    expect(sort.parse({ sort: 'name,desc' }).sort).toEqual([
      { property: 'name', direction: 'desc' },
    ]);
    expect(sort.parse({ sort: ['updatedAt,desc', 'name'] }).sort).toEqual([
      { property: 'updatedAt', direction: 'desc' },
      { property: 'name', direction: 'asc' },
    ]);
    expect(sort.parse({}).sort).toBeUndefined();
  });

  test('an unknown property is an error naming it and the sortable ones', () => {
    for (const value of ['colour', 'name,colour,desc', ['name', 'Name']]) {
      const result = sort.safeParse({ sort: value });
      expect(result.success).toBe(false);
      const message = result.error!.issues[0]!.message;
      expect(message).toMatch(/sort property '(colour|Name)' is unknown/);
      expect(message).toContain('name, createdAt, updatedAt');
    }
  });
});

describe('list query parameters', () => {
  test('defaults: every parameter is optional, blank counts as absent', () => {
    expect(listQuery.parse({})).toEqual({});
    const blank = listQuery.parse({ page: '', size: '', includeRelationships: '', deviceUuid: '' });
    expect(blank.page).toBeUndefined();
    expect(blank.size).toBeUndefined();
    expect(blank.includeRelationships).toBeUndefined();
    expect(blank.deviceUuid).toBeUndefined();
  });

  test('page and size are integers within range', () => {
    expect(listQuery.parse({ page: '0', size: '1' })).toMatchObject({ page: 0, size: 1 });
    expect(listQuery.parse({ page: '3', size: '200' })).toMatchObject({ page: 3, size: 200 });
    expect(listQuery.parse({ page: ' 2 ' }).page).toBe(2);
  });

  test.each([
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'abc'],
    ['page', '1e3'],
    ['page', '99999999999999999999'],
    ['page', '1000000001'],
    ['size', '0'],
    ['size', '201'],
    ['size', '-5'],
    ['size', 'NaN'],
    ['size', '0x10'],
  ])('%s=%s is rejected with a message naming the parameter', (name, value) => {
    const [issue] = issuesOf({ [name]: value });
    expect(issue).toMatch(new RegExp(`^${name}: ${name} must be an integer from`));
  });

  test('a repeated page or size is rejected, not silently picked', () => {
    expect(issuesOf({ page: ['1', '2'] })[0]).toMatch(/^page: /);
    expect(issuesOf({ size: ['10', '10'] })[0]).toMatch(/^size: /);
  });

  test('search is a single string', () => {
    expect(listQuery.parse({ search: 'Demo' }).search).toBe('Demo');
    expect(issuesOf({ search: ['a', 'b'] })[0]).toBe('search: search must be given once');
    expect(issuesOf({ search: 'x'.repeat(201) })[0]).toMatch(/^search: /);
  });

  test('uuid lists: comma-separated, repeated, or both; lowercased; blanks dropped', () => {
    expect(listQuery.parse({ plantUuids: `${UUID_A},${UUID_B}` }).plantUuids).toEqual([
      UUID_A,
      UUID_B,
    ]);
    expect(
      listQuery.parse({ plantUuids: [UUID_A.toUpperCase(), `${UUID_B},`] }).plantUuids,
    ).toEqual([UUID_A, UUID_B]);
    expect(listQuery.parse({ plantUuids: '' }).plantUuids).toEqual([]);
    expect(issuesOf({ plantUuids: `${UUID_A},nope` })[0]).toBe(
      'plantUuids.1: plantUuids must hold UUIDs',
    );
  });

  test('string lists: comma-separated or repeated, trimmed', () => {
    expect(listQuery.parse({ externalIds: 'A-1, B-2' }).externalIds).toEqual(['A-1', 'B-2']);
    expect(listQuery.parse({ externalIds: ['A-1', 'B-2,C-3'] }).externalIds).toEqual([
      'A-1',
      'B-2',
      'C-3',
    ]);
  });

  test('a single uuid parameter is lowercased and checked', () => {
    expect(listQuery.parse({ deviceUuid: UUID_A.toUpperCase() }).deviceUuid).toBe(UUID_A);
    expect(issuesOf({ deviceUuid: 'nope' })[0]).toBe('deviceUuid: deviceUuid must be a UUID');
  });

  test('booleans are true or false', () => {
    expect(listQuery.parse({ includeRelationships: 'true' }).includeRelationships).toBe(true);
    expect(listQuery.parse({ includeRelationships: 'false' }).includeRelationships).toBe(false);
    expect(issuesOf({ includeRelationships: 'maybe' })[0]).toBe(
      'includeRelationships: includeRelationships must be true or false',
    );
  });

  test('booleanParam stands alone', () => {
    const flag = z.object({ flag: booleanParam('flag') });
    expect(flag.parse({ flag: 'TRUE' }).flag).toBe(true);
    expect(flag.safeParse({ flag: ['true', 'false'] }).success).toBe(false);
  });

  test('sort goes through the same parser', () => {
    expect(listQuery.parse({ sort: ['name,desc', 'createdAt'] }).sort).toEqual([
      { property: 'name', direction: 'desc' },
      { property: 'createdAt', direction: 'asc' },
    ]);
  });
});
