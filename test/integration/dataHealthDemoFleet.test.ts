import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWrittenSince, startDemoFleet } from '../support/fleetHistory.ts';
import type { TestServer } from '../support/testServer.ts';

/**
 * Data health on the demo fleet as `--demo` seeds it, with its injected faults
 * (server/simulator/faults.ts), at local noon in Rome on the summer solstice (a fixed clock:
 * the weather, and so every reading, is the same at every run). The rules must find each
 * sensor-level fault and nothing on the healthy plants.
 */

const NOW = Date.parse('2026-06-21T10:00:00Z');
const HISTORY_DAYS = 8;
const FIRST_DAY = '2026-06-15';

interface SensorHealth {
  name: string;
  gapCount: number;
  gaps: { start: string; end: string }[];
  counterIssueCount: number;
  frozenCount: number;
  frozen: { value: number; start: string }[];
  suspicions: { code: string }[];
}

let server: TestServer;
let token: string;
let plants: Map<string, string>;

beforeAll(async () => {
  ({ server, token, plants } = await startDemoFleet(NOW, HISTORY_DAYS));
  // Every sensor's history reaches back before the first day asked, in every zone of the fleet.
  await historyWrittenSince(server, Date.parse(`${FIRST_DAY}T00:00:00+14:00`), 90_000);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function healthOf(plant: string): Promise<Map<string, SensorHealth>> {
  const response = await server.request('GET', `/plants/${plants.get(plant)}/data-health`, {
    token,
    query: { startDate: FIRST_DAY },
  });
  expect(response.status).toBe(200);
  return new Map((response.body.sensors as SensorHealth[]).map((s) => [s.name, s]));
}

const findings = (sensor: SensorHealth) =>
  sensor.gapCount + sensor.counterIssueCount + sensor.frozenCount + sensor.suspicions.length;

describe('data health on the demo fleet', () => {
  it('finds each injected sensor fault', async () => {
    // INVERTER_TRIP 90 minutes ago: PV at 0 W in daylight.
    const berlin = (await healthOf('Berlin Dachhaus')).get('PV production')!;
    expect(berlin.frozen.map((period) => period.value)).toEqual([0]);
    // KW_INSTEAD_OF_W on the consumption meter.
    const kathmandu = (await healthOf('Kathmandu Guesthouse')).get('House consumption')!;
    expect(kathmandu.suspicions.map((found) => found.code)).toEqual(['POWER_LOOKS_LIKE_KILOWATTS']);
    // STOPS_REPORTING 60 minutes ago: one gap to now.
    const milano = (await healthOf('Milano Capannone')).get('PV production')!;
    expect(milano.gaps).toEqual([
      {
        start: '2026-06-21T10:59:00+02:00',
        end: '2026-06-21T12:00:00+02:00',
        durationSeconds: 3660,
      },
    ]);
    // FROZEN_VALUE 26 hours ago: the state of charge stuck at 50 %.
    const munich = (await healthOf('München Bauernhof')).get('Battery state of charge')!;
    expect(munich.frozen.map((period) => period.value)).toEqual([50]);
  });

  it('finds nothing on the healthy plants: PV at night, batteries empty or full, chargers at full power are normal', async () => {
    for (const plant of ['Demo Home', 'Edinburgh Cottage', 'Napoli Villetta', 'Sevilla Finca']) {
      const sensors = await healthOf(plant);
      for (const [name, sensor] of sensors) {
        expect(findings(sensor), `${plant}: ${name} ${JSON.stringify(sensor)}`).toBe(0);
      }
    }
  });
});
