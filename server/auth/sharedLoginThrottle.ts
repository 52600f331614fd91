import {
  keyOf,
  type LoginAttempt,
  type LoginLimiter,
  type LoginThrottleOptions,
  type ThrottleRefusal,
} from './loginThrottle.ts';
import { InFlightChecks } from './inFlightChecks.ts';
import type { SharedWindows } from './sharedWindows.ts';

const ADDRESS_SCOPE = 'login-address';
const FAILURE_SCOPE = 'login-failure';

/**
 * The login throttle of LoginThrottle, counted in the database so that every server instance on
 * it counts the same attempts: failures per account and address, and attempts per address. The
 * checks in flight per account stay per instance: that limit protects this process's password
 * hashing threads, which are its own.
 */
export class SharedLoginThrottle implements LoginLimiter {
  readonly #options: LoginThrottleOptions;
  readonly #windows: SharedWindows;
  readonly #inFlight: InFlightChecks;

  constructor(options: LoginThrottleOptions, windows: SharedWindows) {
    this.#options = options;
    this.#windows = windows;
    this.#inFlight = new InFlightChecks(options.maxInFlightPerAccount);
  }

  async begin(email: string, address: string): Promise<ThrottleRefusal | LoginAttempt> {
    const options = this.#options;
    const key = keyOf(email, address);
    // An attempt counts as failed from the start; success clears the account's failures. So an
    // attempt refused below for the checks in flight stays counted: a burst locks the account
    // after as many attempts as a slow series would.
    const refused = await this.#windows.countUnlessFull([
      {
        scope: ADDRESS_SCOPE,
        subject: address,
        limit: options.maxAttemptsPerAddress,
        windowMs: options.addressWindowMs,
      },
      {
        scope: FAILURE_SCOPE,
        subject: key,
        limit: options.maxFailuresPerAccount,
        windowMs: options.windowMs,
      },
    ]);
    if (refused) {
      return {
        reason: refused.limit.scope === ADDRESS_SCOPE ? 'address' : 'account',
        retryAfterSeconds: refused.retryAfterSeconds,
      };
    }
    const finish = this.#inFlight.start(email);
    if (!finish) return { reason: 'inFlight', retryAfterSeconds: 1 };
    return {
      succeeded: () => {
        // The response does not wait for it; a failure to clear only leaves failures counted.
        if (finish()) void this.#windows.clear(FAILURE_SCOPE, key).catch(() => {});
      },
      failed: () => {
        finish();
      },
    };
  }
}
