import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgresCluster.ts';

/** Where the cluster's errors are kept after the run; .ci/run prints its end when tests fail. */
export const POSTGRES_ERRORS_FILE = 'test-artifacts/postgres-errors.log';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL database URL whose user may create databases: one per TestServer. */
    postgresUrl: string;
  }
}

/**
 * vitest globalSetup of `npm run test:postgres`: one throwaway cluster shared by every test
 * file, or the server PLANTDESK_TEST_POSTGRES_URL names (a role that may create databases).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env.PLANTDESK_TEST_POSTGRES_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return;
  }
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return async () => {
    keepErrors(cluster.logFile);
    await cluster.stop();
  };
}

/**
 * The log's ERROR, FATAL and PANIC lines with the statement or detail lines after each: many are
 * expected (tests provoke constraint violations), but when a test fails for a reason its own
 * output cut short, the server's side of it is here.
 */
function keepErrors(logFile: string): void {
  try {
    const lines = readFileSync(logFile, 'utf8').split('\n');
    const kept = lines.filter(
      (line, index) =>
        /\b(ERROR|FATAL|PANIC):/.test(line) ||
        (/\b(STATEMENT|DETAIL|HINT|CONTEXT):/.test(line) &&
          /\b(ERROR|FATAL|PANIC|STATEMENT|DETAIL|HINT|CONTEXT):/.test(lines[index - 1] ?? '')),
    );
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync(POSTGRES_ERRORS_FILE, kept.join('\n') + '\n');
  } catch {
    // No log to keep (the cluster failed to start): the start's own error says why.
  }
}
