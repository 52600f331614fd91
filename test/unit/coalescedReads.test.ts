import { describe, expect, test } from 'vitest';
import { CoalescedReads } from '../../server/db/coalescedReads.ts';

/** A read whose batches are recorded, answered when `release` is called. */
function recordingReads(options?: { concurrency?: number; maxBatch?: number }) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const reads = new CoalescedReads<number, string>(
    (asks) =>
      new Promise((resolve) => {
        batches.push([...asks]);
        pending.push(() => resolve(asks.map((ask) => `answer ${ask}`)));
      }),
    options,
  );
  const releaseNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { reads, batches, releaseNext };
}

describe('CoalescedReads', () => {
  test('an ask alone is read at once', async () => {
    const { reads, batches, releaseNext } = recordingReads();
    const answer = reads.read(1);
    expect(batches).toEqual([[1]]);
    await releaseNext();
    expect(await answer).toBe('answer 1');
  });

  test('asks made while a read runs go together in the next one, each with its own answer', async () => {
    const { reads, batches, releaseNext } = recordingReads({ concurrency: 1 });
    const answers = [1, 2, 3, 4].map((ask) => reads.read(ask));
    expect(batches).toEqual([[1]]);
    await releaseNext();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await releaseNext();
    expect(await Promise.all(answers)).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4']);
  });

  test('runs up to `concurrency` reads at once and at most `maxBatch` asks in one', async () => {
    const { reads, batches, releaseNext } = recordingReads({ concurrency: 2, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5].map((ask) => reads.read(ask));
    expect(batches).toEqual([[1], [2]]);
    await releaseNext();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    await releaseNext();
    await releaseNext();
    await releaseNext();
    expect(batches).toEqual([[1], [2], [3, 4], [5]]);
    expect(await Promise.all(answers)).toHaveLength(5);
  });

  test('a failed read fails its own asks only, and the next read still runs', async () => {
    let calls = 0;
    const reads = new CoalescedReads<number, number>(
      async (asks) => {
        calls += 1;
        await new Promise((resolve) => setImmediate(resolve));
        if (calls === 1) throw new Error('connection lost');
        return asks.map((ask) => ask * 10);
      },
      { concurrency: 1 },
    );
    const first = reads.read(1);
    const second = reads.read(2);
    await expect(first).rejects.toThrow('connection lost');
    expect(await second).toBe(20);
  });

  test('a read answering the wrong number of answers fails its asks', async () => {
    const reads = new CoalescedReads<number, number>(async () => [1, 2]);
    await expect(reads.read(1)).rejects.toThrow('2 answers to 1 asks');
  });
});
