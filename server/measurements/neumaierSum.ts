/**
 * SQLite's `sum()` of floating-point values (Kahan-Babuska-Neumaier summation, as SQLite 3.43
 * and later do it), so a sum made here equals the one the database would answer to the bit.
 * Nulls are skipped; the sum of none is null.
 */
export class NeumaierSum {
  #sum = 0;
  #error = 0;
  #count = 0;

  add(value: number | null): void {
    if (value === null) return;
    this.#count += 1;
    const sum = this.#sum;
    const next = sum + value;
    this.#error += Math.abs(sum) > Math.abs(value) ? sum - next + value : value - next + sum;
    this.#sum = next;
  }

  total(): number | null {
    if (this.#count === 0) return null;
    return Number.isFinite(this.#error) ? this.#sum + this.#error : this.#sum;
  }
}
