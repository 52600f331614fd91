import { flowMeters, flowSamples, type FlowSamples } from './series.ts';
import type { WiringFlow, WiringInput, WiringSensor } from './types.ts';

/**
 * What several checks need to know about the plant beyond single sensors: whether it has PV
 * and a battery at all (an absent one is a known zero, not an unmeasured term), the balance
 * terms on the comparison grid, and how large a power is large enough to judge a sign by.
 */

/** Powers below max(this, 3 % of peak power) are not judged by sign: meters disagree by that. */
export const SIGN_MIN_W = 150;
const SIGN_PEAK_SHARE = 0.03;

export function signThresholdW(input: WiringInput): number {
  return Math.max(SIGN_MIN_W, SIGN_PEAK_SHARE * (input.plant.pv?.peakPowerKw ?? 0) * 1000);
}

export function hasPv(input: WiringInput): boolean {
  return (
    input.plant.pv !== null ||
    input.devices.some((device) => device.category === 'PRODUCER') ||
    input.sensors.some((sensor) => sensor.flow === 'PRODUCTION')
  );
}

export function hasStorage(input: WiringInput): boolean {
  return (
    input.devices.some((device) => device.category === 'STORAGE') ||
    input.sensors.some((sensor) => sensor.flow === 'STORAGE')
  );
}

/** A flow the plant has no equipment for: zero at every instant. */
const zeroFlow = (flow: WiringFlow, length: number): FlowSamples => ({
  flow,
  sensors: [],
  samples: Array.from({ length }, () => 0),
});

export type BalanceFlow = 'PRODUCTION' | 'CONSUMPTION' | 'GRID' | 'STORAGE';

/**
 * The four balance terms on the comparison grid (consumption = production + grid + storage):
 * measured, a known zero (no PV, no battery), or null (the plant has it but it is unknown).
 */
export function balanceTerms(
  input: WiringInput,
  length: number,
): Record<BalanceFlow, FlowSamples | null> {
  const measuredOrZero = (flow: BalanceFlow, present: boolean) =>
    flowSamples(input, flow) ?? (present ? null : zeroFlow(flow, length));
  return {
    PRODUCTION: measuredOrZero('PRODUCTION', hasPv(input)),
    CONSUMPTION: flowSamples(input, 'CONSUMPTION'),
    GRID: flowSamples(input, 'GRID'),
    STORAGE: measuredOrZero('STORAGE', hasStorage(input)),
  };
}

/** What a term should read by the other three, instant by instant (null where unknown). */
export function impliedSamples(
  terms: Record<BalanceFlow, FlowSamples | null>,
  flow: BalanceFlow,
  length: number,
): (number | null)[] | null {
  const others = (['PRODUCTION', 'CONSUMPTION', 'GRID', 'STORAGE'] as const).filter(
    (name) => name !== flow,
  );
  if (others.some((name) => terms[name] === null)) return null;
  const at = (name: BalanceFlow, index: number) => terms[name]!.samples[index] ?? null;
  return Array.from({ length }, (_, index) => {
    const values = Object.fromEntries(others.map((name) => [name, at(name, index)])) as Record<
      BalanceFlow,
      number | null
    >;
    if (others.some((name) => values[name] === null)) return null;
    const [p, c, g, s] = [
      values.PRODUCTION ?? 0,
      values.CONSUMPTION ?? 0,
      values.GRID ?? 0,
      values.STORAGE ?? 0,
    ];
    switch (flow) {
      case 'CONSUMPTION':
        return p + g + s;
      case 'GRID':
        return c - p - s;
      case 'PRODUCTION':
        return c - g - s;
      case 'STORAGE':
        return c - p - g;
    }
  });
}

/** The sensors a flow's term is made of (for deferring to the check that suspects one). */
export const termSensors = (input: WiringInput, flow: BalanceFlow): WiringSensor[] =>
  flowMeters(input.sensors, flow);
