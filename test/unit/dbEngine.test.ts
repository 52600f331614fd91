import { describe, expect, test } from 'vitest';
import { engineOfLocation, redactedLocation } from '../../server/db/engine.ts';
import { NUMBER_TYPES } from '../../server/db/postgres.ts';

describe('engineOfLocation', () => {
  test('names PostgreSQL for postgres:// and postgresql:// URLs, SQLite for anything else', () => {
    expect(engineOfLocation('postgres://u:p@db.example:5432/plantdesk')).toBe('postgres');
    expect(engineOfLocation('postgresql://localhost/plantdesk')).toBe('postgres');
    expect(engineOfLocation('POSTGRES://localhost/plantdesk')).toBe('postgres');
    expect(engineOfLocation(':memory:')).toBe('sqlite');
    expect(engineOfLocation('./data/plantdesk.db')).toBe('sqlite');
    expect(engineOfLocation('/tmp/postgres/plantdesk.db')).toBe('sqlite');
  });

  test('hides the password of a URL, and leaves a path alone', () => {
    expect(redactedLocation('postgres://u:secret@db.example:5432/plantdesk')).toBe(
      'postgres://u:***@db.example:5432/plantdesk',
    );
    expect(redactedLocation('./data/plantdesk.db')).toBe('./data/plantdesk.db');
  });
});

describe('PostgreSQL number types', () => {
  const INT8 = 20;
  const NUMERIC = 1700;
  const parse = (oid: number, text: string) =>
    (NUMBER_TYPES.getTypeParser(oid, 'text') as unknown as (value: string) => unknown)(text);

  test('answers bigint and numeric as numbers, as SQLite does', () => {
    expect(parse(INT8, '1795610291148')).toBe(1795610291148);
    expect(parse(INT8, '-42')).toBe(-42);
    expect(parse(NUMERIC, '12.5')).toBe(12.5);
  });

  test('refuses a bigint a number cannot hold exactly, rather than answer another', () => {
    expect(() => parse(INT8, '9007199254740993')).toThrow(RangeError);
  });
});
