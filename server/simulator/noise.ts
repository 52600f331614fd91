/**
 * Deterministic randomness for the simulator: every random quantity is a hash of (seed, stream,
 * index), never the output of a generator advanced in some order. A value at a given minute is
 * therefore the same whether it was computed during a 90-day backfill or by a live tick.
 */

/** Independent random streams; a new quantity gets a new number, never a reused one. */
export const STREAMS = {
  cloudRegime: 1,
  cloudField: 2,
  cloudFieldFine: 3,
  cloudFieldCoarse: 4,
  cloudDepth: 5,
  dayClearness: 6,
  temperatureSynoptic: 7,
  temperatureHourly: 8,
  baseLoadDay: 9,
  baseLoadSmooth: 10,
  baseLoadJitter: 11,
  baseLoadEvents: 12,
  heatPumpPhase: 13,
  heatPumpHotWater: 14,
  heatPumpJitter: 15,
  evSession: 16,
  profileLoadPhase: 17,
  profileLoadSmooth: 18,
  voltage: 19,
} as const;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mix(hash: number, value: number): number {
  let k = Math.imul(value | 0, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  let h = hash ^ k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a), to turn a plant uuid into a seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The seed of one plant's simulation: the run's seed combined with the plant's identity. */
export function plantSeed(seed: number, plantUuid: string): number {
  return finish(mix(mix(0, seed), hashString(plantUuid)));
}

/** Uniform in [0, 1) for (seed, stream, index); `index` is any integer (days, minutes, events). */
export function uniform(seed: number, stream: number, index: number): number {
  // Indexes beyond 32 bits (none in practice) still hash both halves.
  const high = Math.floor(index / 4294967296);
  return finish(mix(mix(mix(seed, stream), index), high)) / 4294967296;
}

/** Uniform in [0, 1) for (seed, stream, index, part): several draws for one event. */
export function uniformPart(seed: number, stream: number, index: number, part: number): number {
  return uniform(seed, stream * 64 + part, index);
}

/**
 * Smooth value noise in [0, 1): uniform values on the integer lattice, joined by a smoothstep,
 * so it moves continuously (with a continuous slope) as `position` moves.
 */
export function valueNoise(seed: number, stream: number, position: number): number {
  const lattice = Math.floor(position);
  const fraction = position - lattice;
  const eased = fraction * fraction * (3 - 2 * fraction);
  const from = uniform(seed, stream, lattice);
  return from + (uniform(seed, stream, lattice + 1) - from) * eased;
}

/** Value noise mapped to [−1, 1). */
export function signedNoise(seed: number, stream: number, position: number): number {
  return valueNoise(seed, stream, position) * 2 - 1;
}

export function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}

/** 0 below `edge0`, 1 above `edge1`, a smooth S in between. */
export function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = clamp((value - edge0) / (edge1 - edge0), 0, 1);
  return t * t * (3 - 2 * t);
}
