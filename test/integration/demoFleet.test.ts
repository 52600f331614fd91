import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFleet, DEFAULT_DEMO_FLEET_SIZE } from '../../server/demo/demoFleet.ts';
import { latestFirstReading, startDemoFleet } from '../support/fleetHistory.ts';
import type { TestServer } from '../support/testServer.ts';

/**
 * The demo fleet as `--demo` seeds it, simulated with its faults, at local noon in Rome on the
 * summer solstice (a fixed clock: the weather, and so every figure, is the same at every run).
 */

const NOW = Date.parse('2026-06-21T10:00:00Z');
const HISTORY_DAYS = 10;

let server: TestServer;
let token: string;
let plants: Map<string, string>;

beforeAll(async () => {
  ({ server, token, plants } = await startDemoFleet(NOW, HISTORY_DAYS));
}, 60_000);

afterAll(async () => {
  await server?.close();
});

type Status = {
  name: string;
  lastValue: number | null;
  state: string;
  lastReadingAt: string | null;
};

async function sensorsOf(plant: string): Promise<Map<string, Status>> {
  const response = await server.request('GET', `/plants/${plants.get(plant)}/sensor-statuses`, {
    token,
  });
  expect(response.status).toBe(200);
  return new Map((response.body.sensors as Status[]).map((sensor) => [sensor.name, sensor]));
}

describe('the demo fleet', () => {
  it('has Demo Home and twelve simulated plants across zones, seven of them with a fault', () => {
    expect(plants.size).toBe(13);
    const fleet = demoFleet(DEFAULT_DEMO_FLEET_SIZE, NOW);
    expect(new Set(fleet.map((member) => member.plant.location.timezone))).toEqual(
      new Set(['Europe/Rome', 'Europe/Berlin', 'Europe/Madrid', 'Europe/London', 'Asia/Kathmandu']),
    );
    const faults = fleet.flatMap((member) => [
      ...((member.plant.metadata?.simulation as { faults?: { kind: string }[] }).faults ?? []).map(
        (fault) => fault.kind,
      ),
      ...member.sensors.flatMap((sensor) => {
        const fault = (sensor.metadata.simulation as { fault?: { kind: string } } | undefined)
          ?.fault;
        return fault ? [fault.kind] : [];
      }),
    ]);
    expect(faults.sort()).toEqual([
      'FROZEN_VALUE',
      'INVERTER_TRIP',
      'KW_INSTEAD_OF_W',
      'PEAK_POWER_UNDERSTATED',
      'REVERSED_CT',
      'SOILING',
      'STOPS_REPORTING',
    ]);
    // Past twelve: numbered copies, without faults.
    const bigger = demoFleet(25, NOW);
    expect(bigger[12]!.plant.name).toBe('Roma Uffici 2');
    expect(bigger[24]!.plant.name).toBe('Roma Uffici 3');
    expect(new Set(bigger.map((member) => member.plant.name)).size).toBe(25);
  });

  it("a tripped inverter produces nothing since the trip, at noon of the year's longest day", async () => {
    const berlin = await sensorsOf('Berlin Dachhaus');
    expect(berlin.get('PV production')).toMatchObject({ state: 'REPORTING', lastValue: 0 });
    const munich = await sensorsOf('München Bauernhof');
    expect(munich.get('PV production')!.lastValue).toBeGreaterThan(1000);
  });

  it('a sensor that stops reporting is silent an hour later', async () => {
    const milano = await sensorsOf('Milano Capannone');
    expect(milano.get('PV production')).toMatchObject({
      state: 'SILENT',
      lastReadingAt: new Date(NOW - 61 * 60_000).toISOString(),
    });
    expect(milano.get('Grid exchange')!.state).toBe('REPORTING');
  });

  it('a reversed current transformer reports the grid with the wrong sign', async () => {
    const london = await sensorsOf('London Terrace');
    const pv = london.get('PV production')!.lastValue!;
    const house = london.get('House consumption')!.lastValue!;
    const grid = london.get('Grid exchange')!.lastValue!;
    // Consumption = production + grid on a plant without a battery; reversed, grid = pv − house.
    expect(grid).toBeCloseTo(pv - house, 6);
    expect(grid).not.toBeCloseTo(house - pv, 0);
  });

  it('a meter reporting kW where W is expected reads a thousand times too small', async () => {
    const kathmandu = await sensorsOf('Kathmandu Guesthouse');
    const house = kathmandu.get('House consumption')!.lastValue!;
    expect(house).toBeGreaterThan(0);
    expect(house).toBeLessThan(20);
    const demoHome = await sensorsOf('Demo Home');
    expect(demoHome.get('House consumption')!.lastValue!).toBeGreaterThan(100);
  });

  it('writes the older history in the background, and a soiled array shows in PV health', async () => {
    const madrid = plants.get('Madrid Casa Solar')!;
    const health = async (plant: string) =>
      (await server.request('GET', `/plants/${plant}/pv-health`, { token })).body as {
        status: string;
        performancePercent: number | null;
      };
    // Every sensor reaches back HISTORY_DAYS once the background history is written.
    await expect
      .poll(() => latestFirstReading(server), { timeout: 45_000, interval: 500 })
      .toBeLessThanOrEqual(NOW - (HISTORY_DAYS - 1) * 86_400_000);
    const soiled = await health(madrid);
    const clean = await health(plants.get('Sevilla Finca')!);
    expect(soiled.status).toBe('DEGRADED');
    expect(soiled.performancePercent!).toBeLessThan(clean.performancePercent! * 0.8);
  });
});
