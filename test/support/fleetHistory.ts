import { sql } from 'kysely';
import type { TestServer } from './testServer.ts';

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
