import type { ServerMeasurement } from './loadGenerator.ts';

/** Every sample of one target, in order: requests/s, then server CPU µs per request. */
export function describeSamples(samples: readonly ServerMeasurement[]): string {
  const list = (values: number[]) =>
    values.map((value) => Math.round(value).toLocaleString('en-US')).join(' / ');
  const rates = list(samples.map((sample) => sample.requestsPerSecond));
  const cpu = list(samples.map((sample) => sample.cpuMicrosPerResponse));
  return `${rates} req/s   (${cpu} µs server CPU per request)`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
