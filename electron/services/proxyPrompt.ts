import { randomUUID } from 'node:crypto';
import type { Emit } from './eventBus.ts';
import type { ProxyLoginAnswer, ProxyLoginQuestion } from './proxyAuth.ts';

/**
 * The window's half of proxy sign-in: a question goes out as the `proxyAuth.requested` event and
 * waits for the page's `proxyAuth.answer` with its id. One question per proxy and realm at a
 * time: calls that meet the same proxy together share the one dialog. A question nobody answers
 * within `timeoutMs` (no window open, a page reloaded since) counts as cancelled, so that the
 * sign-in that waits for it ends and the next call asks again.
 */
export interface ProxyPrompt {
  ask(question: ProxyLoginQuestion): Promise<ProxyLoginAnswer | null>;
  /** The page's answer (null: cancelled); false when no such question is waiting. */
  answer(requestId: string, answer: ProxyLoginAnswer | null): boolean;
}

export const PROXY_QUESTION_TIMEOUT_MS = 5 * 60_000;

export function createProxyPrompt(
  emit: Emit,
  timeoutMs: number = PROXY_QUESTION_TIMEOUT_MS,
): ProxyPrompt {
  const waiting = new Map<string, (answer: ProxyLoginAnswer | null) => void>();
  const asked = new Map<string, Promise<ProxyLoginAnswer | null>>();

  function ask(question: ProxyLoginQuestion): Promise<ProxyLoginAnswer | null> {
    const key = `${question.host}:${question.port}/${question.realm}/${question.refused}`;
    const pending = asked.get(key);
    if (pending) return pending;
    const requestId = randomUUID();
    const answered = new Promise<ProxyLoginAnswer | null>((resolve) => {
      const unanswered = setTimeout(() => answer(requestId, null), timeoutMs);
      unanswered.unref?.();
      waiting.set(requestId, (given) => {
        clearTimeout(unanswered);
        resolve(given);
      });
    }).finally(() => asked.delete(key));
    asked.set(key, answered);
    emit('proxyAuth.requested', { requestId, ...question });
    return answered;
  }

  function answer(requestId: string, given: ProxyLoginAnswer | null): boolean {
    const resolve = waiting.get(requestId);
    if (!resolve) return false;
    waiting.delete(requestId);
    resolve(given);
    return true;
  }

  return { ask, answer };
}
