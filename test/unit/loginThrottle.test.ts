import { describe, expect, test } from 'vitest';
import {
  isRefusal,
  LoginThrottle,
  type LoginAttempt,
  type LoginThrottleOptions,
  type ThrottleRefusal,
} from '../../server/auth/loginThrottle.ts';

const WINDOW_MS = 60_000;
const ADDRESS = '192.0.2.10';

/** A throttle on a clock the test moves by hand. */
function throttleAt(options: Partial<LoginThrottleOptions> = {}) {
  const clock = { now: 1_700_000_000_000 };
  const throttle = new LoginThrottle(
    {
      maxFailuresPerAccount: 3,
      windowMs: WINDOW_MS,
      maxInFlightPerAccount: 2,
      maxAttemptsPerAddress: 1000,
      addressWindowMs: 10_000,
      ...options,
    },
    () => clock.now,
  );
  return { throttle, clock };
}

function started(outcome: ThrottleRefusal | LoginAttempt): LoginAttempt {
  if (isRefusal(outcome)) throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return outcome;
}

function fail(throttle: LoginThrottle, email: string, times: number, address = ADDRESS): void {
  for (let i = 0; i < times; i += 1) started(throttle.begin(email, address)).failed();
}

/** Seconds until the next attempt is allowed, 0 when it is (the probe is then finished). */
function wait(throttle: LoginThrottle, email: string, address = ADDRESS): number {
  const outcome = throttle.begin(email, address);
  if (isRefusal(outcome)) return outcome.retryAfterSeconds;
  outcome.succeeded();
  return 0;
}

describe('LoginThrottle', () => {
  test('allows attempts until the per-account limit is reached', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 2);
    expect(isRefusal(throttle.begin('a@x.test', ADDRESS))).toBe(false);
    const { throttle: other } = throttleAt();
    fail(other, 'a@x.test', 3);
    expect(other.begin('a@x.test', ADDRESS)).toEqual({
      reason: 'account',
      retryAfterSeconds: WINDOW_MS / 1000,
    });
  });

  test('an attempt counts as failed from its start: a burst cannot all be checked', () => {
    const { throttle } = throttleAt({ maxInFlightPerAccount: 100 });
    const burst = Array.from({ length: 10 }, () => throttle.begin('a@x.test', ADDRESS));
    // Three got to be checked; the rest were refused before any of them finished.
    expect(burst.filter((outcome) => !isRefusal(outcome))).toHaveLength(3);
    expect(burst.filter(isRefusal).map((refusal) => refusal.reason)).toEqual(
      Array(7).fill('account'),
    );
  });

  test('caps the checks of one account in flight, and frees a slot when one ends', () => {
    const { throttle } = throttleAt({ maxFailuresPerAccount: 100 });
    const first = started(throttle.begin('a@x.test', ADDRESS));
    started(throttle.begin('a@x.test', '198.51.100.7'));
    expect(throttle.begin('a@x.test', '203.0.113.9')).toEqual({
      reason: 'inFlight',
      retryAfterSeconds: 1,
    });
    // Another account is not held up.
    started(throttle.begin('b@x.test', ADDRESS)).failed();
    first.failed();
    first.failed(); // told twice: still one slot
    started(throttle.begin('a@x.test', '203.0.113.9'));
    expect(isRefusal(throttle.begin('a@x.test', ADDRESS))).toBe(true);
  });

  test('limits attempts per address whatever the accounts, before any check', () => {
    const { throttle, clock } = throttleAt({ maxAttemptsPerAddress: 5 });
    for (let i = 0; i < 5; i += 1) started(throttle.begin(`nobody${i}@x.test`, ADDRESS)).failed();
    expect(throttle.begin('someone@x.test', ADDRESS)).toEqual({
      reason: 'address',
      retryAfterSeconds: 10,
    });
    // Another address is not limited, and the window slides.
    expect(isRefusal(throttle.begin('someone@x.test', '198.51.100.7'))).toBe(false);
    clock.now += 10_000;
    expect(isRefusal(throttle.begin('someone@x.test', ADDRESS))).toBe(false);
  });

  test('counts per account and address: another account or another address is not blocked', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 3);
    expect(wait(throttle, 'a@x.test')).toBeGreaterThan(0);
    expect(wait(throttle, 'b@x.test')).toBe(0);
    expect(wait(throttle, 'a@x.test', '198.51.100.7')).toBe(0);
  });

  test('the window slides: failures older than the window stop counting', () => {
    const { throttle, clock } = throttleAt();
    fail(throttle, 'a@x.test', 1);
    clock.now += 20_000;
    fail(throttle, 'a@x.test', 2);
    // Blocked until the oldest of the three leaves the window, 40 s from now.
    expect(wait(throttle, 'a@x.test')).toBe(40);
    clock.now += 39_000;
    expect(wait(throttle, 'a@x.test')).toBe(1);
    clock.now += 1_000;
    // Allowed again: the probe succeeds, which clears the count.
    expect(wait(throttle, 'a@x.test')).toBe(0);
    fail(throttle, 'a@x.test', 3);
    expect(wait(throttle, 'a@x.test')).toBe(60);
  });

  test('Retry-After is never 0 while blocked, even for the last millisecond of the window', () => {
    const { throttle, clock } = throttleAt();
    fail(throttle, 'a@x.test', 3);
    clock.now += WINDOW_MS - 1;
    expect(wait(throttle, 'a@x.test')).toBe(1);
  });

  test('a success clears the account count for that address', () => {
    const { throttle } = throttleAt();
    fail(throttle, 'a@x.test', 2);
    started(throttle.begin('a@x.test', ADDRESS)).succeeded();
    fail(throttle, 'a@x.test', 2);
    expect(wait(throttle, 'a@x.test')).toBe(0);
    fail(throttle, 'a@x.test', 3);
    expect(wait(throttle, 'a@x.test')).toBeGreaterThan(0);
  });

  test('failures spread over many accounts from one address block none of them', () => {
    // The Local sandbox sees every login from 127.0.0.1: one person's typos must not lock out all.
    const { throttle } = throttleAt();
    for (let i = 0; i < 50; i += 1) fail(throttle, `user${i}@x.test`, 2);
    expect(wait(throttle, 'fresh@x.test')).toBe(0);
    expect(wait(throttle, 'user7@x.test')).toBe(0);
  });
});
