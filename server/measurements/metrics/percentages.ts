/**
 * Shares of a total as percentages with two decimals that add up to exactly 100.00 in
 * hundredths (largest remainder: each share rounded down, the missing hundredths going to the
 * largest remainders, ties to the earlier entry). Negative amounts count as 0. When nothing is
 * positive (an empty list, or every amount 0) every percentage is 0: there is no whole to share.
 */
export function percentagesOf(amounts: readonly number[]): number[] {
  const positive = amounts.map((amount) => (amount > 0 ? amount : 0));
  const total = positive.reduce((sum, amount) => sum + amount, 0);
  if (!(total > 0)) return amounts.map(() => 0);
  const exact = positive.map((amount) => (amount / total) * 10_000);
  const hundredths = exact.map(Math.floor);
  let missing = 10_000 - hundredths.reduce((sum, value) => sum + value, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - hundredths[index]! }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    hundredths[index]! += 1;
    missing -= 1;
  }
  return hundredths.map((value) => value / 100);
}
