/**
 * Counts failed logins in a sliding window, per account and address and (more loosely) per
 * address alone, so neither guessing one account's password nor sweeping many accounts from one
 * address goes fast. A successful login clears the account's count for that address.
 */
export interface LoginThrottleOptions {
  /** Failed attempts for one account from one address within the window. */
  maxFailuresPerAccount: number;
  /** Failed attempts from one address, all accounts together, within the window. */
  maxFailuresPerAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  maxFailuresPerAccount: 10,
  maxFailuresPerAddress: 100,
  windowMs: 15 * 60 * 1000,
};

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
    const accountWait = this.#wait(accountKey(email, address), this.#options.maxFailuresPerAccount);
    const addressWait = this.#wait(addressKey(address), this.#options.maxFailuresPerAddress);
    return Math.max(accountWait, addressWait);
  }

  recordFailure(email: string, address: string): void {
    const now = this.#now();
    for (const key of [accountKey(email, address), addressKey(address)]) {
      const times = this.#recent(key, now);
      times.push(now);
      this.#failures.set(key, times);
    }
    if (this.#failures.size > 50_000) this.#prune(now);
  }

  recordSuccess(email: string, address: string): void {
    this.#failures.delete(accountKey(email, address));
  }

  #wait(key: string, limit: number): number {
    const now = this.#now();
    const times = this.#recent(key, now);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit] ?? now;
    return Math.max(1, Math.ceil((oldestCounted + this.#options.windowMs - now) / 1000));
  }

  #recent(key: string, now: number): number[] {
    const since = now - this.#options.windowMs;
    return (this.#failures.get(key) ?? []).filter((time) => time > since);
  }

  #prune(now: number): void {
    for (const [key] of this.#failures) {
      const times = this.#recent(key, now);
      if (times.length === 0) this.#failures.delete(key);
      else this.#failures.set(key, times);
    }
  }
}

const accountKey = (email: string, address: string) => `account:${email}|${address}`;
const addressKey = (address: string) => `address:${address}`;
