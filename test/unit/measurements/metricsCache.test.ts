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
  it('keeps an answer from its second asking on, until the database is written to', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    let computed = 0;
    const compute = async () => ++computed;
    expect(await cache.get(plant, 'key', compute)).toBe(1);
    expect(await cache.get(plant, 'key', compute)).toBe(2);
    expect(await cache.get(plant, 'key', compute)).toBe(2);
    expect(await cache.get(plant, 'key', compute)).toBe(2);
    expect(await cache.get(plant, 'other', compute)).toBe(3);
    expect(await cache.get(plant, 'other', compute)).toBe(4);
    expect(await cache.get(plant, 'other', compute)).toBe(4);
    write();
    expect(await cache.get(plant, 'key', compute)).toBe(5);
    expect(await cache.get(plant, 'key', compute)).toBe(6);
    expect(await cache.get(plant, 'key', compute)).toBe(6);
    expect(await cache.get(randomUUID(), 'key', compute)).toBe(7);
  });

  it('keeps nothing of answers asked once (a history window, an analytics range)', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    let computed = 0;
    for (let window = 0; window < 100; window += 1) {
      expect(await cache.get(plant, `window-${window}`, async () => ++computed)).toBe(window + 1);
    }
    expect(computed).toBe(100);
    expect(await cache.get(plant, 'window-99', async () => -1)).toBe(-1);
    expect(await cache.get(plant, 'window-99', async () => -2)).toBe(-1);
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
    expect(await cache.get(plant, 'key', racing)).toBe(2);
    expect(await cache.get(plant, 'key', async () => 10)).toBe(10);
    expect(await cache.get(plant, 'key', async () => 20)).toBe(20);
    expect(await cache.get(plant, 'key', async () => 30)).toBe(20);
  });

  it('does not remember what `keep` refuses, nor failures', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    const refused = () => false;
    expect(await cache.get(plant, 'key', async () => 1, refused)).toBe(1);
    expect(await cache.get(plant, 'key', async () => 2, refused)).toBe(2);
    expect(await cache.get(plant, 'key', async () => 3)).toBe(3);
    expect(await cache.get(plant, 'key', async () => 4)).toBe(4);
    expect(await cache.get(plant, 'key', async () => 5)).toBe(4);
    const failing = async () => {
      throw new Error('boom');
    };
    await expect(cache.get(plant, 'failing', failing)).rejects.toThrow('boom');
    await expect(cache.get(plant, 'failing', failing)).rejects.toThrow('boom');
    expect(await cache.get(plant, 'failing', async () => 6)).toBe(6);
    expect(await cache.get(plant, 'failing', async () => 7)).toBe(7);
  });

  it('remembers what `own` makes of a value, made only when the value is remembered', async () => {
    const cache = new MetricsCache(generation);
    const plant = randomUUID();
    const owned: number[] = [];
    const own = (value: { n: number }) => {
      owned.push(value.n);
      return { n: -value.n };
    };
    const keepAll = () => true;
    expect(await cache.get(plant, 'key', async () => ({ n: 1 }), keepAll, own)).toEqual({ n: 1 });
    expect(owned).toEqual([]);
    expect(await cache.get(plant, 'key', async () => ({ n: 2 }), keepAll, own)).toEqual({ n: 2 });
    expect(owned).toEqual([2]);
    expect(await cache.get(plant, 'key', async () => ({ n: 3 }), keepAll, own)).toEqual({ n: -2 });
    expect(owned).toEqual([2]);
  });

  it('forgets the oldest values and plants beyond its limits', async () => {
    const cache = new MetricsCache(generation, { plants: 2, valuesPerPlant: 2 });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const keep = async (plant: string, key: string, value: number) => {
      await cache.get(plant, key, async () => value);
      await cache.get(plant, key, async () => value);
    };
    await keep(a, 'one', 1);
    await keep(a, 'two', 2);
    await keep(a, 'three', 3);
    expect(await cache.get(a, 'one', async () => -1)).toBe(-1);
    expect(await cache.get(a, 'three', async () => -3)).toBe(3);
    await keep(b, 'one', 1);
    await keep(c, 'one', 1);
    expect(await cache.get(a, 'three', async () => -3)).toBe(-3);
  });
});
