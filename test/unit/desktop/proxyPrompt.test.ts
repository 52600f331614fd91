import { describe, expect, test, vi } from 'vitest';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import { CHANNEL_NAMES, type ChannelHandlers } from '../../../electron/ipc/contract.ts';
import { createProxyPrompt } from '../../../electron/services/proxyPrompt.ts';
import type { ProxyLoginQuestion } from '../../../electron/services/proxyAuth.ts';

/** The window's half of a proxy sign-in: one event out, one answer back by its id. */

const QUESTION: ProxyLoginQuestion = {
  host: 'proxy.corp.example',
  port: 3128,
  realm: 'Corp',
  scheme: 'basic',
  refused: false,
};

function promptRecording(timeoutMs?: number) {
  const sent: { requestId: string }[] = [];
  const prompt = createProxyPrompt((event, payload) => {
    if (event === 'proxyAuth.requested') sent.push(payload as { requestId: string });
  }, timeoutMs);
  return { prompt, sent };
}

describe('proxy prompt', () => {
  test('one question per proxy and realm at a time; the answer goes to its askers', async () => {
    const { prompt, sent } = promptRecording();
    const first = prompt.ask(QUESTION);
    const second = prompt.ask(QUESTION);
    const other = prompt.ask({ ...QUESTION, realm: 'Other' });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ requestId: expect.any(String), ...QUESTION });
    const answer = { username: 'alice', password: 's3cret', remember: true };
    expect(prompt.answer(sent[0]!.requestId, answer)).toBe(true);
    expect(await first).toEqual(answer);
    expect(await second).toEqual(answer);
    // Answered once: the id is spent.
    expect(prompt.answer(sent[0]!.requestId, answer)).toBe(false);
    expect(prompt.answer(sent[1]!.requestId, null)).toBe(true);
    expect(await other).toBeNull();
    // A later question asks again.
    void prompt.ask(QUESTION);
    expect(sent).toHaveLength(3);
  });

  test('a question nobody answers counts as cancelled, and the next one is asked again', async () => {
    vi.useFakeTimers();
    try {
      const { prompt, sent } = promptRecording(60_000);
      const asked = prompt.ask(QUESTION);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(prompt.answer('no-such-question', null)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await asked).toBeNull();
      expect(prompt.answer(sent[0]!.requestId, null)).toBe(false);
      void prompt.ask(QUESTION);
      expect(sent).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  test("the channel checks the page's answer before the prompt sees it", async () => {
    const { prompt, sent } = promptRecording();
    const handlers = Object.fromEntries(
      CHANNEL_NAMES.map((name) => [name, async () => undefined]),
    ) as unknown as ChannelHandlers;
    handlers['proxyAuth.answer'] = async (id, answer) => prompt.answer(id, answer);
    const dispatch = createDispatcher(handlers);
    const asked = prompt.ask(QUESTION);
    const { requestId } = sent[0]!;
    for (const args of [
      ['not-an-id', null],
      [requestId, { username: '', password: 'x', remember: false }],
      [requestId, { username: 'a', password: 'x', remember: false, extra: 1 }],
      [requestId],
    ]) {
      expect(await dispatch('proxyAuth.answer', args)).toMatchObject({
        ok: false,
        error: { kind: 'invalidArguments' },
      });
    }
    const answer = { username: 'alice', password: 's3cret', remember: false };
    expect(await dispatch('proxyAuth.answer', [requestId, answer])).toEqual({
      ok: true,
      value: true,
    });
    expect(await asked).toEqual(answer);
  });
});
