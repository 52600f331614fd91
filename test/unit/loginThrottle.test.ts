import { describe, expect, test } from 'vitest';
import { LoginThrottle, type LoginThrottleOptions } from '../../server/auth/loginThrottle.ts';

const WINDOW_MS = 60_000;
const ADDRESS = '192.0.2.10';

/** A throttle on a clock the test moves by hand. */
function throttleAt(options: Partial<LoginThrottleOptions> = {}) {
  const clock = { now: 1_700_000_000_000 };
  const throttle = new LoginThrottle(
    { maxFailuresPerAccount: 3, windowMs: WINDOW_MS, ...options },
    () => clock.now,
  );
  return { throttle, clock };
}

function fail(throttle: LoginThrottle, email: string, times: number, address = ADDRESS): void {
  for (let i = 0; i < times; i += 1) throttle.recordFailure(email, address);
}

describe('LoginThrottle', () => {
  test('allows attempts until the per-account limit is reached', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 2);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(0);
    fail(throttle, 'a@x.test', 1);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(WINDOW_MS / 1000);
  });

  test('counts per account and address: another account or another address is not blocked', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 3);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('b@x.test', ADDRESS)).toBe(0);
    expect(throttle.retryAfterSeconds('a@x.test', '198.51.100.7')).toBe(0);
  });

  test('the window slides: failures older than the window stop counting', () => {
    const { throttle, clock } = throttleAt();
    fail(throttle, 'a@x.test', 1);
    clock.now += 20_000;
    fail(throttle, 'a@x.test', 2);
    // Blocked until the oldest of the three leaves the window, 40 s from now.
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(40);
    clock.now += 39_000;
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(1);
    clock.now += 1_000;
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(0);
    // The two later failures still count: one more blocks again, until the second one expires.
    fail(throttle, 'a@x.test', 1);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(20);
  });

  test('Retry-After is never 0 while blocked, even for the last millisecond of the window', () => {
    const { throttle, clock } = throttleAt();
    fail(throttle, 'a@x.test', 3);
    clock.now += WINDOW_MS - 1;
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(1);
  });

  test('a success clears the account count for that address', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 2);
    throttle.recordSuccess('a@x.test', ADDRESS);
    fail(throttle, 'a@x.test', 2);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBe(0);
    fail(throttle, 'a@x.test', 1);
    expect(throttle.retryAfterSeconds('a@x.test', ADDRESS)).toBeGreaterThan(0);
  });

  test('failures spread over many accounts from one address block none of them', () => {
    // The Local sandbox sees every login from 127.0.0.1: one person's typos must not lock out all.
    const { throttle } = throttleAt();
    for (let i = 0; i < 50; i += 1) fail(throttle, `user${i}@x.test`, 2);
    expect(throttle.retryAfterSeconds('fresh@x.test', ADDRESS)).toBe(0);
    expect(throttle.retryAfterSeconds('user7@x.test', ADDRESS)).toBe(0);
  });
});
