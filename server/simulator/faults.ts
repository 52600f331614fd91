import { z } from 'zod';

/**
 * Faults the simulator can inject, so that the demo has something for monitoring to find and
 * tests can make each alert happen. Set in metadata (README, "Simulated faults"):
 *
 * - a plant's `metadata.simulation.faults`: `INVERTER_TRIP` (production 0 from `from`),
 *   `SOILING` (production × `factor`, default 0.6, from `from`) and `PEAK_POWER_UNDERSTATED`
 *   (production × `factor`, default 2: the array is larger than its pv settings say). They act
 *   on the PV output itself, so the battery and the grid meter follow as on a real site;
 * - a sensor's `metadata.simulation.fault`: `STOPS_REPORTING` (no reading from `from`),
 *   `REVERSED_CT` (the value's sign flipped: a current transformer mounted backwards),
 *   `KW_INSTEAD_OF_W` (power reported in kW where W is expected) and `FROZEN_VALUE` (the
 *   sensor keeps reporting `value`, default 50: a stuck gauge).
 *
 * `from` is an ISO 8601 instant; without it the fault has always been there.
 */

export const PLANT_FAULT_KINDS = ['INVERTER_TRIP', 'SOILING', 'PEAK_POWER_UNDERSTATED'] as const;
export const SENSOR_FAULT_KINDS = [
  'STOPS_REPORTING',
  'REVERSED_CT',
  'KW_INSTEAD_OF_W',
  'FROZEN_VALUE',
] as const;
export type PlantFaultKind = (typeof PLANT_FAULT_KINDS)[number];
export type SensorFaultKind = (typeof SENSOR_FAULT_KINDS)[number];

export const DEFAULT_SOILING_FACTOR = 0.6;
export const DEFAULT_UNDERSTATEMENT_FACTOR = 2;
export const DEFAULT_FROZEN_VALUE = 50;

/** A change to the PV output from `fromMs` on: production × `factor`. */
export interface PvFault {
  kind: PlantFaultKind;
  fromMs: number;
  factor: number;
}

export interface SensorFault {
  kind: SensorFaultKind;
  fromMs: number;
  /** FROZEN_VALUE: what the sensor keeps reporting. */
  value?: number;
}

const Instant = z.iso.datetime({ offset: true }).transform((text) => Date.parse(text));

const PlantFaultSetting = z.object({
  kind: z.enum(PLANT_FAULT_KINDS),
  from: Instant.optional(),
  /** SOILING: 0..1; PEAK_POWER_UNDERSTATED: 1..10. */
  factor: z.number().min(0).max(10).optional(),
});
const SensorFaultSetting = z.object({
  kind: z.enum(SENSOR_FAULT_KINDS),
  from: Instant.optional(),
  value: z.number().finite().optional(),
});

function pvFactorOf(kind: PlantFaultKind, factor: number | undefined): number | null {
  switch (kind) {
    case 'INVERTER_TRIP':
      return 0;
    case 'SOILING':
      return factor === undefined ? DEFAULT_SOILING_FACTOR : factor <= 1 ? factor : null;
    case 'PEAK_POWER_UNDERSTATED':
      return factor === undefined ? DEFAULT_UNDERSTATEMENT_FACTOR : factor >= 1 ? factor : null;
  }
}

function simulationSettings(metadata: unknown): Record<string, unknown> | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const simulation = (metadata as Record<string, unknown>).simulation;
  return typeof simulation === 'object' && simulation !== null
    ? (simulation as Record<string, unknown>)
    : undefined;
}

/** `metadata.simulation.backgroundHistory === true` (see SimulatedPlant). */
export function backgroundHistoryOf(metadata: unknown): boolean {
  return simulationSettings(metadata)?.backgroundHistory === true;
}

/** The plant's PV faults; entries that do not parse are ignored (metadata is free-form). */
export function plantFaultsOf(metadata: unknown): PvFault[] {
  const faults = simulationSettings(metadata)?.faults;
  if (!Array.isArray(faults)) return [];
  return faults.flatMap((candidate) => {
    const parsed = PlantFaultSetting.safeParse(candidate);
    if (!parsed.success) return [];
    const { kind, from } = parsed.data;
    const factor = pvFactorOf(kind, parsed.data.factor);
    if (factor === null) return [];
    return [{ kind, fromMs: from ?? Number.NEGATIVE_INFINITY, factor }];
  });
}

export function sensorFaultOf(metadata: unknown): SensorFault | null {
  const parsed = SensorFaultSetting.safeParse(simulationSettings(metadata)?.fault);
  if (!parsed.success) return null;
  const { kind, from, value } = parsed.data;
  return {
    kind,
    fromMs: from ?? Number.NEGATIVE_INFINITY,
    ...(kind === 'FROZEN_VALUE' && { value: value ?? DEFAULT_FROZEN_VALUE }),
  };
}

/** What the PV output is multiplied by at `timeMs`. */
export function pvFactorAt(faults: readonly PvFault[], timeMs: number): number {
  let factor = 1;
  for (const fault of faults) if (timeMs >= fault.fromMs) factor *= fault.factor;
  return factor;
}

/**
 * Applies a sensor's fault to the readings appended from `start` on (parallel arrays, changed
 * in place): dropped, sign-flipped, divided by 1,000 or frozen from the fault's start.
 */
export function applySensorFault(
  fault: SensorFault | null | undefined,
  takenAt: number[],
  values: number[],
  start: number,
): void {
  if (!fault) return;
  if (fault.kind === 'STOPS_REPORTING') {
    let keep = start;
    for (let index = start; index < takenAt.length; index++) {
      if (takenAt[index]! < fault.fromMs) {
        takenAt[keep] = takenAt[index]!;
        values[keep] = values[index]!;
        keep++;
      }
    }
    takenAt.length = keep;
    values.length = keep;
    return;
  }
  const frozen = fault.value ?? DEFAULT_FROZEN_VALUE;
  const change =
    fault.kind === 'REVERSED_CT'
      ? (value: number) => -value
      : fault.kind === 'FROZEN_VALUE'
        ? () => frozen
        : (value: number) => value / 1000;
  for (let index = start; index < takenAt.length; index++) {
    if (takenAt[index]! >= fault.fromMs) values[index] = change(values[index]!);
  }
}
