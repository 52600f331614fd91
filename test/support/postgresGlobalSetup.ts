import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgresCluster.ts';

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
  return () => cluster.stop();
}
