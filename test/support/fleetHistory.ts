import { sql } from 'kysely';
import { DEFAULT_DEMO_FLEET_SIZE } from '../../server/demo/demoFleet.ts';
import { TestServer } from './testServer.ts';

/** The first reading of the sensor that reaches back least far: every sensor has history since. */
export async function latestFirstReading(server: TestServer): Promise<number> {
  const { rows } = await sql<{ first: number }>`
    select max(first) as first from (
      select min(taken_at) as first from readings group by sensor_uuid) as firsts`.execute(
    server.server.context.db,
  );
  return Number(rows[0]!.first);
}

/** Waits until the demo fleet's background history reaches back to `since` for every sensor. */
export async function historyWrittenSince(
  server: TestServer,
  since: number,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await latestFirstReading(server)) > since) {
    if (Date.now() > deadline)
      throw new Error(`the background history was not written in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A server with the demo fleet simulated up to `now` (no live readings), and its plants. */
export async function startDemoFleet(now: number, historyDays: number) {
  const server = await TestServer.start({
    now: () => new Date(now),
    demoFleet: DEFAULT_DEMO_FLEET_SIZE,
    simulation: { historyDays, live: false },
  });
  const token = await server.tokenFor('manager');
  const list = await server.request('GET', '/plants', { token, query: { size: 100 } });
  const plants = new Map<string, string>();
  for (const plant of list.body.content as { name: string; plantUuid: string }[]) {
    plants.set(plant.name, plant.plantUuid);
  }
  return { server, token, plants };
}
