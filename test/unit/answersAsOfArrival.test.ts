import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ServerContext } from '../../server/context.ts';
import { ApiError } from '../../server/http/errors.ts';
import { AnswersAsOfArrival, CATCH_UP_FIRST_MS } from '../../server/http/answersAsOfArrival.ts';

/**
 * A server instance's energy answers made before any catch-up: kept when a snapshot read since
 * the request arrived found nothing written, else made again after one (answersAsOfArrival.ts).
 * The database is faked: `snapshotRead()` is a read sent now; `writeElsewhere()` a write another
 * instance commits, which the next catch-up finds.
 */
function instance() {
  const writes = { value: 0 };
  const revoked = new Set<string>();
  let freshAsOf = -Infinity;
  let pendingWrite = false;
  const log: string[] = [];
  const catchUp = async () => {
    log.push('catch-up');
    freshAsOf = performance.now();
    if (pendingWrite) writes.value += 1;
    pendingWrite = false;
  };
  const context = {
    writes,
    revocations: {
      isRevoked: async (familyId: string) => {
        log.push('session checked');
        return revoked.has(familyId);
      },
    },
  } as unknown as Pick<ServerContext, 'revocations' | 'writes'>;
  const answers = new AnswersAsOfArrival(
    { freshSince: (instant) => freshAsOf >= instant },
    context,
    catchUp,
  );
  let made = 0;
  /** An answer whose computing includes a rollup read that also reads the snapshot. */
  const answer = (readsSnapshot: boolean) => async () => {
    made += 1;
    log.push('answer');
    if (readsSnapshot) {
      freshAsOf = performance.now();
      if (pendingWrite) writes.value += 1;
      pendingWrite = false;
    }
    return `answer ${made}`;
  };
  return {
    answers,
    answer,
    log,
    revoked,
    writeElsewhere: () => (pendingWrite = true),
    writeHere: () => (writes.value += 1),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
  vi.advanceTimersByTime(10_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AnswersAsOfArrival', () => {
  test('an answer whose own read found nothing written is kept: no catch-up', async () => {
    const { answers, answer, log } = instance();
    vi.advanceTimersByTime(1);
    expect(await answers.answer(answer(true), answers.arrival(), 'family')).toBe('answer 1');
    expect(log).toEqual(['answer']);
  });

  test('an answer read from memory alone catches up after, and is kept if nothing was written', async () => {
    const { answers, answer, log } = instance();
    vi.advanceTimersByTime(1);
    expect(await answers.answer(answer(false), answers.arrival(), 'family')).toBe('answer 1');
    expect(log).toEqual(['answer', 'catch-up']);
  });

  test('a write found by its read or by the catch-up: the session is checked and the answer made again', async () => {
    for (const readsSnapshot of [true, false]) {
      const { answers, answer, log, writeElsewhere } = instance();
      writeElsewhere();
      expect(await answers.answer(answer(readsSnapshot), answers.arrival(), 'family')).toBe(
        'answer 2',
      );
      expect(log).toEqual(['answer', 'catch-up', 'session checked', 'answer']);
    }
  });

  test('a write of this instance during the request makes the answer again', async () => {
    const { answers, answer, log, writeHere } = instance();
    const arrival = answers.arrival();
    writeHere();
    expect(await answers.answer(answer(true), arrival, 'family')).toBe('answer 2');
    expect(log).toEqual(['answer', 'catch-up', 'session checked', 'answer']);
  });

  test('a session signed out elsewhere is refused', async () => {
    const { answers, answer, revoked, writeElsewhere } = instance();
    revoked.add('family');
    writeElsewhere();
    await expect(answers.answer(answer(true), answers.arrival(), 'family')).rejects.toMatchObject({
      status: 401,
    });
  });

  test('an error stands unless the catch-up finds a write, then the answer is made again', async () => {
    const { answers, log, writeElsewhere } = instance();
    let calls = 0;
    const missingThenFound = async () => {
      calls += 1;
      if (calls === 1) throw new ApiError(404, 'Plant not found');
      return 'found';
    };
    await expect(answers.answer(missingThenFound, answers.arrival(), 'family')).rejects.toThrow(
      'Plant not found',
    );
    expect(log).toEqual(['catch-up']);
    calls = 0;
    vi.advanceTimersByTime(CATCH_UP_FIRST_MS);
    writeElsewhere();
    expect(await answers.answer(missingThenFound, answers.arrival(), 'family')).toBe('found');
  });

  test('after an answer made again, requests catch up first for a while, then no longer', async () => {
    const { answers, answer, log, writeElsewhere } = instance();
    writeElsewhere();
    await answers.answer(answer(true), answers.arrival(), 'family');
    log.length = 0;
    vi.advanceTimersByTime(CATCH_UP_FIRST_MS - 1);
    await answers.answer(answer(true), answers.arrival(), 'family');
    expect(log).toEqual(['catch-up', 'answer']);
    log.length = 0;
    vi.advanceTimersByTime(2);
    await answers.answer(answer(true), answers.arrival(), 'family');
    expect(log).toEqual(['answer']);
  });
});
