/**
 * Counts failed logins per account and address in a sliding window. Keyed on the pair, not on
 * the address alone: the desktop app's Local sandbox sees every login from 127.0.0.1, and a
 * per-address lock would shut every account out after one person's typos. A successful login
 * clears the count of that account from that address.
 */
export interface LoginThrottleOptions {
  /** Failed attempts for one account from one address within the window. */
  maxFailuresPerAccount: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  maxFailuresPerAccount: 10,
  windowMs: 15 * 60 * 1000,
};

/** Above this many tracked pairs, expired ones are swept out. */
const SWEEP_THRESHOLD = 50_000;

export class LoginThrottle {
  readonly #options: LoginThrottleOptions;
  readonly #now: () => number;
  readonly #failures = new Map<string, number[]>();

  constructor(options: LoginThrottleOptions, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
  }

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(email: string, address: string): number {
    const now = this.#now();
    const times = this.#recent(keyOf(email, address), now);
    const limit = this.#options.maxFailuresPerAccount;
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit] ?? now;
    return Math.max(1, Math.ceil((oldestCounted + this.#options.windowMs - now) / 1000));
  }

  recordFailure(email: string, address: string): void {
    const now = this.#now();
    const key = keyOf(email, address);
    const times = this.#recent(key, now);
    times.push(now);
    this.#failures.set(key, times);
    if (this.#failures.size > SWEEP_THRESHOLD) this.#sweep(now);
  }

  recordSuccess(email: string, address: string): void {
    this.#failures.delete(keyOf(email, address));
  }

  #recent(key: string, now: number): number[] {
    const since = now - this.#options.windowMs;
    return (this.#failures.get(key) ?? []).filter((time) => time > since);
  }

  #sweep(now: number): void {
    for (const key of [...this.#failures.keys()]) {
      const times = this.#recent(key, now);
      if (times.length === 0) this.#failures.delete(key);
      else this.#failures.set(key, times);
    }
  }
}

const keyOf = (email: string, address: string) => `${email}|${address}`;
