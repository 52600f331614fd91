import { describe, expect, test } from 'vitest';
import {
  createProxyAuth,
  proxySecretKey,
  type ProxyLoginAnswer,
  type ProxyLoginQuestion,
} from '../../../electron/services/proxyAuth.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';
import { PROXY_CHALLENGE } from '../../support/apiTransports.ts';

/**
 * Which credentials a proxy's `login` events get: the user's typed answer, or the one remembered
 * for that very proxy and realm; a refused answer is asked again a bounded number of times.
 */

const PROXY = PROXY_CHALLENGE;
const TYPED: ProxyLoginAnswer = { username: 'alice', password: 's3cret', remember: false };

/** A user who answers from a list, in order (null: cancels), and the questions asked. */
function user(answers: (ProxyLoginAnswer | null)[]) {
  const questions: ProxyLoginQuestion[] = [];
  return {
    questions,
    ask: async (question: ProxyLoginQuestion) => {
      questions.push(question);
      return answers.shift() ?? null;
    },
  };
}

describe('proxy sign-in answers', () => {
  test("the user's answer goes to the proxy; a server's own challenge gets nothing", async () => {
    const asking = user([TYPED]);
    const round = createProxyAuth({ ask: asking.ask }).round();
    expect(await round.answer({ ...PROXY, isProxy: false, host: 'api.plantdesk.test' })).toBe(null);
    expect(asking.questions).toEqual([]);
    expect(await round.answer(PROXY)).toEqual({ username: 'alice', password: 's3cret' });
    expect(asking.questions).toEqual([
      { host: 'proxy.corp.example', port: 3128, realm: 'Corp', scheme: 'basic', refused: false },
    ]);
    expect(round.gaveUp).toBeUndefined();
  });

  test('a refused password is asked again at most maxRetries times, then the round gives up', async () => {
    const asking = user([TYPED, TYPED, TYPED, TYPED]);
    const round = createProxyAuth({ ask: asking.ask, maxRetries: 2 }).round();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await round.answer(PROXY)).not.toBeNull();
    }
    expect(asking.questions.map((question) => question.refused)).toEqual([false, true, true]);
    expect(await round.answer(PROXY)).toBeNull();
    expect(round.gaveUp).toBe('refused');
    expect(asking.questions).toHaveLength(3);
  });

  test('cancelling the dialog cancels the sign-in', async () => {
    const round = createProxyAuth({ ask: user([null]).ask }).round();
    expect(await round.answer(PROXY)).toBeNull();
    expect(round.gaveUp).toBe('cancelled');
  });

  test('"remember" keeps the answer for this proxy and realm, once the proxy took it', async () => {
    const keychain = createMemoryStore();
    const auth = createProxyAuth({
      ask: user([{ ...TYPED, remember: true }]).ask,
      keychain,
    });
    const round = auth.round();
    await round.answer(PROXY);
    expect(await keychain.get(proxySecretKey(PROXY))).toBeUndefined();
    await round.succeeded();
    expect(JSON.parse((await keychain.get(proxySecretKey(PROXY)))!)).toEqual({
      username: 'alice',
      password: 's3cret',
    });
    expect(proxySecretKey(PROXY)).toBe('proxy/proxy.corp.example%3A3128/Corp');

    // The next launch's sign-in: the remembered answer, without a question.
    const later = user([]);
    const next = createProxyAuth({ ask: later.ask, keychain }).round();
    expect(await next.answer(PROXY)).toEqual({ username: 'alice', password: 's3cret' });
    expect(later.questions).toEqual([]);
  });

  test('a remembered password is offered to its own proxy and realm only', async () => {
    const keychain = createMemoryStore();
    await keychain.set(proxySecretKey(PROXY), JSON.stringify({ username: 'a', password: 'p' }));
    for (const other of [
      { ...PROXY, realm: 'Other realm' },
      { ...PROXY, port: 8080 },
      { ...PROXY, host: 'proxy2.corp.example' },
    ]) {
      const asking = user([TYPED]);
      const round = createProxyAuth({ ask: asking.ask, keychain }).round();
      expect(await round.answer(other)).toEqual({ username: 'alice', password: 's3cret' });
      expect(asking.questions).toHaveLength(1);
    }
    // Nor to a server that asks for a password of its own, on the proxy's very address.
    const asking = user([]);
    const round = createProxyAuth({ ask: asking.ask, keychain }).round();
    expect(await round.answer({ ...PROXY, isProxy: false })).toBeNull();
  });

  test('a remembered password the proxy refuses is forgotten, and the user asked', async () => {
    const keychain = createMemoryStore();
    await keychain.set(proxySecretKey(PROXY), JSON.stringify({ username: 'a', password: 'old' }));
    const asking = user([TYPED]);
    const round = createProxyAuth({ ask: asking.ask, keychain }).round();
    expect(await round.answer(PROXY)).toEqual({ username: 'a', password: 'old' });
    expect(await round.answer(PROXY)).toEqual({ username: 'alice', password: 's3cret' });
    expect(asking.questions.map((question) => question.refused)).toEqual([true]);
    expect(await keychain.get(proxySecretKey(PROXY))).toBeUndefined();
  });
});
