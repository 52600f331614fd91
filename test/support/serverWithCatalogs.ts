import { afterAll, beforeAll } from 'vitest';
import { TestServer } from './testServer.ts';

export interface ServerWithCatalogs {
  server: TestServer;
  installer: string;
  manager: string;
  /** Sensor type code → uuid. */
  sensorTypes: Record<string, string>;
  /** Data type code → uuid. */
  dataTypes: Record<string, string>;
}

/**
 * A test server whose clock stands at `now`, started before the file's tests and closed after
 * them, with an installer's and a manager's token and the catalogs the tests' sensors name: for
 * the tests that set up plants, meters and readings of their own. Its fields are there once the
 * file's tests run.
 */
export function serverWithCatalogs(now: number): ServerWithCatalogs {
  const context = {} as ServerWithCatalogs;
  beforeAll(async () => {
    const server = await TestServer.start({ now: () => new Date(now) });
    Object.assign(context, {
      server,
      installer: await server.tokenFor('installer'),
      manager: await server.tokenFor('manager'),
      sensorTypes: await server.catalog('/sensor-types', 'sensorTypeUuid'),
      dataTypes: await server.catalog('/data-types-collects', 'dataTypesCollectUuid'),
    });
  });
  afterAll(async () => {
    await context.server?.close();
  });
  return context;
}
