import { basename } from 'node:path';

/**
 * Whether a test run gets its PostgreSQL suites: a server named by PLANTDESK_TEST_POSTGRES_URL,
 * or PostgreSQL's server binaries to start a throwaway cluster with (postgresCluster.ts). Without
 * either, a developer's run skips those suites and says so in one line; CI (`CI`, or
 * PLANTDESK_REQUIRE_POSTGRES=1 as `.ci/run` sets) must not pass by skipping them, so there it is
 * an error.
 */
export type PostgresPlan =
  { run: true } | { run: false; notice: string } | { run: false; error: string };

export interface PostgresProbe {
  env: Record<string, string | undefined>;
  /** The folder of initdb and pg_ctl, when found. */
  binDir: string | undefined;
}

const INSTALL_HINT =
  "install Debian's postgresql (apt-get install -y --no-install-recommends postgresql), " +
  'set PLANTDESK_POSTGRES_BIN to a folder with initdb and pg_ctl, or PLANTDESK_TEST_POSTGRES_URL ' +
  'to a server whose role may create databases';

export function requiresPostgres(env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return env.PLANTDESK_REQUIRE_POSTGRES === '1' || (!!ci && ci !== 'false' && ci !== '0');
}

export function postgresPlan(probe: PostgresProbe, suites: readonly string[]): PostgresPlan {
  if (probe.env.PLANTDESK_TEST_POSTGRES_URL || probe.binDir) return { run: true };
  const why = 'no PostgreSQL found (no initdb under /usr/lib/postgresql/*/bin)';
  if (requiresPostgres(probe.env)) {
    return {
      run: false,
      error: `PostgreSQL is required here (CI or PLANTDESK_REQUIRE_POSTGRES=1) but ${why}: ${INSTALL_HINT}.`,
    };
  }
  const names = suites.map((suite) => basename(suite, '.test.ts')).join(', ');
  return {
    run: false,
    notice: `PostgreSQL suites skipped, ${why}: ${names}. To run them, ${INSTALL_HINT}.`,
  };
}
