/**
 * Password checks of one account running at once in this process, at most `limit`: the hashing
 * threads are the process's own, so this count is never shared between server instances.
 */
export class InFlightChecks {
  readonly #limit: number;
  readonly #running = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Counts a check of `account` as started, or answers undefined when `limit` are already
   * running. The function returned ends it: true the first time, false if it had already ended.
   */
  start(account: string): (() => boolean) | undefined {
    const running = this.#running.get(account) ?? 0;
    if (running >= this.#limit) return undefined;
    this.#running.set(account, running + 1);
    let done = false;
    return () => {
      if (done) return false;
      done = true;
      const left = (this.#running.get(account) ?? 1) - 1;
      if (left > 0) this.#running.set(account, left);
      else this.#running.delete(account);
      return true;
    };
  }
}
