import type {
  DirectionTestMeter,
  Reading,
  WiringDevice,
  WiringInput,
  WiringSensor,
} from '../../../server/domain/wiring/index.ts';

/**
 * Crafted plants for the wiring checks: a home in Bolzano (8.4 kWp facing south, Europe/Rome)
 * whose meters read what the test says, one reading a minute over the 15 minutes before `now`.
 */

export const at = (iso: string): number => Date.parse(iso);
/** Summer noon, a summer night, the spring-forward DST day at noon (CEST), winter noon. */
export const JUNE_NOON = at('2026-06-21T10:00:00Z');
export const JUNE_NIGHT = at('2026-06-21T22:30:00Z');
export const DST_NOON = at('2026-03-29T10:30:00Z');
export const DST_SWITCH = at('2026-03-29T01:05:00Z');

/** One reading a minute for 15 minutes up to `now`; `value` of the minute index 0..14. */
export function series(now: number, value: number | ((minute: number) => number)): Reading[] {
  return Array.from({ length: 15 }, (_, minute): Reading => [
    now - (14 - minute) * 60_000,
    typeof value === 'number' ? value : value(minute),
  ]);
}

let count = 0;
export function sensor(
  overrides: Partial<WiringSensor> & Pick<WiringSensor, 'flow'>,
): WiringSensor {
  count += 1;
  return {
    sensorUuid: `aaaaaaaa-0000-4000-8000-${String(count).padStart(12, '0')}`,
    name: `${overrides.flow.toLowerCase()} meter ${count}`,
    deviceUuid: null,
    dataType: 'POWER',
    unit: 'W',
    readings: [],
    ...overrides,
  };
}

export const INVERTER: WiringDevice = {
  deviceUuid: 'dddddddd-0000-4000-8000-000000000001',
  name: 'Inverter',
  category: 'PRODUCER',
  ratedPowerW: 8000,
};
export const BATTERY: WiringDevice = {
  deviceUuid: 'dddddddd-0000-4000-8000-000000000002',
  name: 'Battery',
  category: 'STORAGE',
  ratedPowerW: 5000,
};

export interface Flows {
  production?: number | ((minute: number) => number);
  consumption: number | ((minute: number) => number);
  /** Discharge positive; omitted: the plant has no battery. */
  storage?: number | ((minute: number) => number);
  /** Omitted: the balance, consumption − production − storage. */
  grid?: number | ((minute: number) => number);
  /** State of charge at minute 0, % (moves with the storage power of a 10 kWh battery). */
  socStart?: number;
}

const valueAt = (value: number | ((minute: number) => number) | undefined, minute: number) =>
  value === undefined ? 0 : typeof value === 'number' ? value : value(minute);

/**
 * A consistent plant: production, consumption, grid and battery meters that balance, the
 * battery's state of charge following its power. `pv: false` is a plant without PV.
 */
export function craftedPlant(
  now: number,
  flows: Flows,
  options: { pv?: boolean } = {},
): WiringInput {
  const pv = options.pv ?? true;
  const grid = (minute: number) =>
    flows.grid === undefined
      ? valueAt(flows.consumption, minute) -
        valueAt(flows.production, minute) -
        valueAt(flows.storage, minute)
      : valueAt(flows.grid, minute);
  const sensors: WiringSensor[] = [
    sensor({
      flow: 'CONSUMPTION',
      name: 'House meter',
      readings: series(now, (m) => valueAt(flows.consumption, m)),
    }),
    sensor({ flow: 'GRID', name: 'Grid meter', readings: series(now, grid) }),
  ];
  if (pv) {
    sensors.push(
      sensor({
        flow: 'PRODUCTION',
        name: 'PV meter',
        deviceUuid: INVERTER.deviceUuid,
        readings: series(now, (m) => valueAt(flows.production, m)),
      }),
    );
  }
  if (flows.storage !== undefined) {
    let soc = flows.socStart ?? 50;
    const socReadings = series(now, (minute) => {
      if (minute > 0) soc -= (valueAt(flows.storage, minute - 1) / 60 / 10_000) * 100;
      return soc;
    });
    sensors.push(
      sensor({
        flow: 'STORAGE',
        name: 'Battery power',
        deviceUuid: BATTERY.deviceUuid,
        readings: series(now, (m) => valueAt(flows.storage, m)),
      }),
      sensor({
        flow: 'STORAGE',
        name: 'Battery charge',
        deviceUuid: BATTERY.deviceUuid,
        dataType: 'STATE_OF_CHARGE',
        unit: '%',
        readings: socReadings,
      }),
    );
  }
  return {
    plant: {
      location: { latitude: 46.4983, longitude: 11.3548, altitudeM: 262, timezone: 'Europe/Rome' },
      pv: pv ? { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 } : null,
    },
    devices: [...(pv ? [INVERTER] : []), ...(flows.storage !== undefined ? [BATTERY] : [])],
    sensors,
    now,
  };
}

/** The input with one sensor's readings changed. */
export function withReadings(
  input: WiringInput,
  name: string,
  change: (value: number) => number,
): WiringInput {
  return {
    ...input,
    sensors: input.sensors.map((candidate) =>
      candidate.name === name && candidate.readings
        ? { ...candidate, readings: candidate.readings.map(([t, v]): Reading => [t, change(v)]) }
        : candidate,
    ),
  };
}

/** Six readings 10 s apart from `startMs`, alternating by 20 W: a meter settled at `watts`. */
export const steady = (startMs: number, watts: number): Reading[] =>
  Array.from({ length: 6 }, (_, index): Reading => [
    startMs + index * 10_000,
    watts + (index % 2) * 20,
  ]);

/** A grid meter for the direction test: 400 W before, 2.4 kW after a 2 kW load went on. */
export const directionMeter = (overrides: Partial<DirectionTestMeter>): DirectionTestMeter => ({
  sensorUuid: 'aaaaaaaa-0000-4000-8000-000000000001',
  name: 'Grid meter',
  flow: 'GRID',
  unit: 'W',
  before: steady(0, 400),
  after: steady(120_000, 2400),
  ...overrides,
});
