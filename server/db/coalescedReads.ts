/**
 * Reads of one kind, gathered: at most `concurrency` run at once, and the asks made while they
 * all run wait for one to end and then go together in the next read (at most `maxBatch` asks in
 * one). Alone, an ask is read at once; under load, one statement answers several requests.
 * On PostgreSQL each statement is a round trip whose fixed cost (the socket on both sides, the
 * backend's executor) outweighs reading a day's rollups, and concurrent requests ask questions
 * of the same shape.
 *
 * `readAll` answers one answer per ask, in their order. Should it fail, every ask of that read
 * fails with its error (a lost connection, which the others' reads would meet as well).
 */
export class CoalescedReads<Ask, Answer> {
  readonly #readAll: (asks: readonly Ask[]) => Promise<readonly Answer[]>;
  readonly #concurrency: number;
  readonly #maxBatch: number;
  #running = 0;
  #waiting: { ask: Ask; resolve(answer: Answer): void; reject(error: unknown): void }[] = [];

  constructor(
    readAll: (asks: readonly Ask[]) => Promise<readonly Answer[]>,
    { concurrency = 1, maxBatch = 64 }: { concurrency?: number; maxBatch?: number } = {},
  ) {
    this.#readAll = readAll;
    this.#concurrency = concurrency;
    this.#maxBatch = maxBatch;
  }

  read(ask: Ask): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#waiting.push({ ask, resolve, reject });
      if (this.#running < this.#concurrency) this.#readNext();
    });
  }

  #readNext(): void {
    const batch = this.#waiting.splice(0, this.#maxBatch);
    if (batch.length === 0) return;
    this.#running += 1;
    const settled = (settle: () => void) => {
      this.#running -= 1;
      settle();
      this.#readNext();
    };
    let answers: Promise<readonly Answer[]>;
    try {
      answers = this.#readAll(batch.map((waiting) => waiting.ask));
    } catch (error) {
      answers = Promise.reject(error);
    }
    answers.then(
      (read) =>
        settled(() => {
          if (read.length !== batch.length) {
            const error = new Error(`${read.length} answers to ${batch.length} asks`);
            for (const waiting of batch) waiting.reject(error);
            return;
          }
          batch.forEach((waiting, index) => waiting.resolve(read[index]!));
        }),
      (error: unknown) => settled(() => batch.forEach((waiting) => waiting.reject(error))),
    );
  }
}
