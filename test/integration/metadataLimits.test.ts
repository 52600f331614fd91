import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlant, expectStatus } from '../support/entities.ts';
import { referenceUuids } from '../support/referenceData.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * Metadata of plants, devices and sensors has limits (10 levels, 500 keys, 16 KB as JSON): a
 * body beyond them is a 400 naming the limit, never a 500, and nothing it could have stored can
 * break a list. Bodies are sent as raw text: JSON.stringify itself cannot write 4,400 levels.
 */

let server: TestServer;
let token: string;
let plantUuid: string;
let reference: Awaited<ReturnType<typeof referenceUuids>>;

beforeAll(async () => {
  server = await TestServer.start();
  token = await server.tokenFor('admin');
  plantUuid = (await createPlant(server, token, { name: 'Metadata limits' })).plantUuid;
  reference = await referenceUuids(server);
});
afterAll(() => server?.close());

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A JSON body whose `metadata` is `metadata` (JSON text), the rest from `fields`. */
function rawBody(fields: Record<string, unknown>, metadata: string): string {
  return `${JSON.stringify(fields).slice(0, -1)},"metadata":${metadata}}`;
}

const LOCATION = { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' };

describe.each([
  {
    what: 'plant',
    method: 'POST',
    path: () => '/plants',
    fields: () => ({ name: 'Deep', location: LOCATION }),
  },
  {
    what: 'device',
    method: 'POST',
    path: () => `/plants/${plantUuid}/devices`,
    fields: () => ({ deviceTypeUuid: reference.deviceTypes.INVERTER }),
  },
  {
    what: 'sensor',
    method: 'POST',
    path: () => `/plants/${plantUuid}/sensors`,
    fields: () => ({ sensorTypeUuid: reference.sensorTypes.POWER_METER, flow: 'PRODUCTION' }),
  },
])('$what metadata', ({ method, path, fields }) => {
  const send = (metadata: string) =>
    server.request(method, path(), {
      token,
      rawBody: rawBody(fields(), metadata),
      headers: { 'content-type': 'application/json' },
    });

  it('4,400 levels deep: 400 naming the limit, and every list still answers', async () => {
    const error = expectErrorBody(await send(nested(4400)), 400);
    expect(error.message).toBe(
      "Invalid body field 'metadata': metadata is nested deeper than 10 levels",
    );
    expectErrorBody(await send(nested(200_000)), 400);
    for (const list of [
      '/plants',
      `/plants/${plantUuid}/devices`,
      `/plants/${plantUuid}/sensors`,
    ]) {
      expect((await server.request('GET', list, { token })).status, list).toBe(200);
    }
  });

  it('10 levels are fine; 11 are not', async () => {
    expect((await send(nested(10))).status).toBe(201);
    expectErrorBody(await send(nested(11)), 400);
  });

  it('more than 16 KB or 500 keys: 400 saying which', async () => {
    const large = JSON.stringify({ text: 'x'.repeat(17_000) });
    expect(expectErrorBody(await send(large), 400).message).toMatch(
      /metadata is \d+ bytes as JSON; at most 16384 are allowed/,
    );
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, i])),
    );
    expect(expectErrorBody(await send(wide), 400).message).toContain(
      'metadata has more than 500 keys',
    );
  });
});

it('a PUT is held to the same limits', async () => {
  const error = expectErrorBody(
    await server.request('PUT', `/plants/${plantUuid}`, {
      token,
      rawBody: `{"metadata":${nested(50)}}`,
      headers: { 'content-type': 'application/json' },
    }),
    400,
  );
  expect(error.message).toContain('nested deeper than 10 levels');
});

it('metadata stored before the limits existed cannot break the list it is in', async () => {
  const victim = await createPlant(server, token, { name: 'Stored before the limits' });
  await server.server.context.db
    .updateTable('plants')
    .set({ metadata: nested(4400) })
    .where('plant_uuid', '=', victim.plantUuid)
    .execute();
  const list = expectStatus(
    await server.request('GET', '/plants', { token, query: { size: 200 } }),
    200,
    'list',
  );
  const shown = list.content.find((plant: any) => plant.plantUuid === victim.plantUuid);
  expect(shown.metadata).toEqual({
    plantdeskNotice: 'The stored metadata is not shown: metadata is nested deeper than 10 levels',
  });
});
