import { afterAll, beforeAll, expect, test } from 'vitest';
import { SUMMARY_MAX_AGE_MS } from '../../server/features/fleet/summaryCache.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * Plant summaries are remembered for a minute by the server's clock: a reading that arrives
 * within it shows at the next computation, a change of the plant itself at once, and another
 * set of permissions never sees figures computed for the first.
 */

let now = Date.parse('2026-06-21T10:00:00Z');
let server: TestServer;
let token: string;
let plantUuid = '';
let sensorUuid = '';

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(now) });
  token = await server.tokenFor('installer');
  const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  plantUuid = (await createPlant(server, token, { name: 'Cached Rome', pv: { peakPowerKw: 5 } }))
    .plantUuid;
  sensorUuid = (
    await createSensor(server, token, plantUuid, {
      name: 'PV inverter',
      flow: 'PRODUCTION',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      samplingIntervalSeconds: 60,
    })
  ).sensorUuid;
});

afterAll(async () => {
  await server?.close();
});

async function summary() {
  const response = await server.request('GET', '/plant-summaries', {
    token,
    query: { plantUuids: plantUuid },
  });
  expectStatus(response, 200, 'plant summaries');
  return response.body.content[0] as { name: string; lastReadingAt: string | null };
}

test('a new reading shows once the minute is over; a renamed plant at once', async () => {
  expect((await summary()).lastReadingAt).toBeNull();
  const reading = await server.request(
    'POST',
    `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
    {
      token,
      body: { readings: [{ timestamp: new Date(now - 60_000).toISOString(), value: 1500 }] },
    },
  );
  expectStatus(reading, 202, 'ingest');
  now += 30_000;
  expect((await summary()).lastReadingAt).toBeNull();
  now += SUMMARY_MAX_AGE_MS;
  expect((await summary()).lastReadingAt).toBe('2026-06-21T09:59:00.000Z');

  const renamed = await server.request('PUT', `/plants/${plantUuid}`, {
    token,
    body: { name: 'Cached Roma' },
  });
  expectStatus(renamed, 200, 'rename');
  expect((await summary()).name).toBe('Cached Roma');
});
