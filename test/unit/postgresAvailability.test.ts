import { describe, expect, test } from 'vitest';
import { postgresPlan, requiresPostgres } from '../support/postgresAvailability.ts';

const SUITES = ['test/integration/plants.test.ts', 'test/property/fuzz.test.ts'];

describe('whether a test run gets its PostgreSQL suites', () => {
  test('with the server binaries, or a server URL, they run', () => {
    expect(postgresPlan({ env: {}, binDir: '/usr/lib/postgresql/15/bin' }, SUITES)).toEqual({
      run: true,
    });
    expect(
      postgresPlan(
        { env: { PLANTDESK_TEST_POSTGRES_URL: 'postgres://x@h/db' }, binDir: undefined },
        SUITES,
      ),
    ).toEqual({ run: true });
  });

  test('without either, a developer run skips them with one line naming them and why', () => {
    const plan = postgresPlan({ env: {}, binDir: undefined }, SUITES);
    expect(plan.run).toBe(false);
    const notice = 'notice' in plan ? plan.notice : '';
    expect(notice).not.toContain('\n');
    expect(notice).toMatch(/^PostgreSQL suites skipped, no PostgreSQL found/);
    expect(notice).toContain('plants, fuzz');
    expect(notice).toContain('apt-get install');
  });

  test('in CI, or with PLANTDESK_REQUIRE_POSTGRES=1, a missing PostgreSQL is an error', () => {
    for (const env of [{ CI: 'true' }, { CI: '1' }, { PLANTDESK_REQUIRE_POSTGRES: '1' }]) {
      const plan = postgresPlan({ env, binDir: undefined }, SUITES);
      expect('error' in plan && plan.error).toMatch(/PostgreSQL is required here/);
    }
    expect(requiresPostgres({ CI: 'false' })).toBe(false);
    expect(requiresPostgres({})).toBe(false);
  });
});
