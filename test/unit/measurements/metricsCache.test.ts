import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MetricsCache } from '../../../server/measurements/metrics/metricsCache.ts';

/** Stands in for the database's write generation. */
const database = { writes: 0 };
const generation = () => database.writes;
const write = () => {
  database.writes += 1;
};

describe('MetricsCache', () => {
  it('answers a remembered value until the database is written to', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    let computed = 0;
    const compute = async () => ++computed;
    expect(await cache.get(plant, 'key', compute)).toBe(1);
    expect(await cache.get(plant, 'key', compute)).toBe(1);
    expect(await cache.get(plant, 'other', compute)).toBe(2);
    write();
    expect(await cache.get(plant, 'key', compute)).toBe(3);
    expect(await cache.get(randomUUID(), 'key', compute)).toBe(4);
  });

  it('does not remember a value computed while the database was written to', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    let computed = 0;
    const racing = async () => {
      computed += 1;
      write();
      return computed;
    };
    expect(await cache.get(plant, 'key', racing)).toBe(1);
    expect(await cache.get(plant, 'key', async () => 10)).toBe(10);
    expect(await cache.get(plant, 'key', async () => 20)).toBe(10);
  });

  it('does not remember what `keep` refuses, nor failures', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    expect(
      await cache.get(
        plant,
        'key',
        async () => 1,
        () => false,
      ),
    ).toBe(1);
    expect(await cache.get(plant, 'key', async () => 2)).toBe(2);
    await expect(
      cache.get(plant, 'failing', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await cache.get(plant, 'failing', async () => 3)).toBe(3);
  });

  it('forgets the oldest values and plants beyond its limits', async () => {
    const cache = new MetricsCache(generation, { plants: 2, valuesPerPlant: 2 });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await cache.get(a, 'one', async () => 1);
    await cache.get(a, 'two', async () => 2);
    await cache.get(a, 'three', async () => 3);
    expect(await cache.get(a, 'one', async () => -1)).toBe(-1);
    expect(await cache.get(a, 'three', async () => -3)).toBe(3);
    await cache.get(b, 'one', async () => 1);
    await cache.get(c, 'one', async () => 1);
    expect(await cache.get(a, 'three', async () => -3)).toBe(-3);
  });
});
