import { InFlightChecks } from './inFlightChecks.ts';

/**
 * Limits password checks, before any hashing:
 * - per account and address, a sliding window of failed attempts. Keyed on the pair, not on the
 *   address alone: the desktop app's Local sandbox sees every login from 127.0.0.1, and a
 *   per-address lock would shut every account out after one person's typos. An attempt counts
 *   as failed from the moment it starts (it is only cleared if the password was right), so
 *   sending many at once cannot have them all checked before the first failure is counted;
 * - per account, the checks in flight at once: a burst waits for nothing, it is refused;
 * - per address, every attempt (any account, known or not) in a shorter window, so a flood of
 *   made-up e-mails cannot keep the thread pool busy hashing.
 * A successful login clears the failures of that account from that address.
 */
export interface LoginThrottleOptions {
  /** Failed attempts for one account from one address within the window. */
  maxFailuresPerAccount: number;
  windowMs: number;
  /** Password checks of one account running at once. */
  maxInFlightPerAccount: number;
  /** Attempts from one address, whatever the account, within `addressWindowMs`. */
  maxAttemptsPerAddress: number;
  addressWindowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  maxFailuresPerAccount: 10,
  windowMs: 15 * 60 * 1000,
  maxInFlightPerAccount: 2,
  maxAttemptsPerAddress: 300,
  addressWindowMs: 60 * 1000,
};

/** Why an attempt may not go ahead, and when the next one may. */
export interface ThrottleRefusal {
  reason: 'account' | 'inFlight' | 'address';
  retryAfterSeconds: number;
}

/** An attempt under way: its outcome is told once, then it is over. */
export interface LoginAttempt {
  succeeded(): void;
  failed(): void;
}

/**
 * What the login route asks: this process's LoginThrottle (SQLite, one process) or one counted
 * in the database for every instance (PostgreSQL, sharedLoginThrottle.ts).
 */
export interface LoginLimiter {
  begin(email: string, address: string): Promise<ThrottleRefusal | LoginAttempt>;
}

/** Above this many tracked keys, expired ones are swept out. */
const SWEEP_THRESHOLD = 50_000;

export class LoginThrottle {
  /** As a LoginLimiter: counted synchronously all the same, before the promise is returned. */
  readonly limiter: LoginLimiter = {
    begin: (email, address) => Promise.resolve(this.begin(email, address)),
  };

  readonly #options: LoginThrottleOptions;
  readonly #now: () => number;
  readonly #failures = new Map<string, number[]>();
  readonly #addressAttempts = new Map<string, number[]>();
  readonly #inFlight: InFlightChecks;

  constructor(options: LoginThrottleOptions, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
    this.#inFlight = new InFlightChecks(options.maxInFlightPerAccount);
  }

  /**
   * Starts an attempt: a refusal, or the attempt, already counted as a failure until it is told
   * otherwise. Synchronous, so concurrent requests see each other's counts.
   */
  begin(email: string, address: string): ThrottleRefusal | LoginAttempt {
    const now = this.#now();
    const options = this.#options;
    const attempts = recent(this.#addressAttempts, address, now, options.addressWindowMs);
    if (attempts.length >= options.maxAttemptsPerAddress) {
      return refusal(
        'address',
        attempts,
        options.maxAttemptsPerAddress,
        options.addressWindowMs,
        now,
      );
    }
    const key = keyOf(email, address);
    const failures = recent(this.#failures, key, now, options.windowMs);
    if (failures.length >= options.maxFailuresPerAccount) {
      return refusal('account', failures, options.maxFailuresPerAccount, options.windowMs, now);
    }
    const finish = this.#inFlight.start(email);
    if (!finish) return { reason: 'inFlight', retryAfterSeconds: 1 };

    attempts.push(now);
    this.#addressAttempts.set(address, attempts);
    failures.push(now);
    this.#failures.set(key, failures);
    if (this.#failures.size + this.#addressAttempts.size > SWEEP_THRESHOLD) this.#sweep(now);

    return {
      succeeded: () => {
        if (finish()) this.#failures.delete(key);
      },
      failed: () => {
        finish();
      },
    };
  }

  #sweep(now: number): void {
    for (const [map, windowMs] of [
      [this.#failures, this.#options.windowMs],
      [this.#addressAttempts, this.#options.addressWindowMs],
    ] as const) {
      for (const key of [...map.keys()]) {
        const times = recent(map, key, now, windowMs);
        if (times.length === 0) map.delete(key);
        else map.set(key, times);
      }
    }
  }
}

export function isRefusal(outcome: ThrottleRefusal | LoginAttempt): outcome is ThrottleRefusal {
  return 'reason' in outcome;
}

function recent(map: Map<string, number[]>, key: string, now: number, windowMs: number): number[] {
  const since = now - windowMs;
  return (map.get(key) ?? []).filter((time) => time > since);
}

/** Blocked until the oldest of the last `limit` times leaves the window; never 0 seconds. */
function refusal(
  reason: ThrottleRefusal['reason'],
  times: readonly number[],
  limit: number,
  windowMs: number,
  now: number,
): ThrottleRefusal {
  const oldestCounted = times[times.length - limit] ?? now;
  return {
    reason,
    retryAfterSeconds: Math.max(1, Math.ceil((oldestCounted + windowMs - now) / 1000)),
  };
}

export const keyOf = (email: string, address: string) => `${email}|${address}`;
