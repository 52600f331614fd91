/**
 * A metric's JSON number text, as `String` writes it, made faster for the values metrics send:
 * rounded to six decimals (`roundMetric`). Writing a double's shortest text is most of the time
 * of a 720-point series; a multiple of 1e-6 below 1e9 is its integer count of millionths, a
 * string of small integers and table lookups.
 *
 * Why the text is `String`'s: with k = round(value × 1e6), |k| < 1e15 and value === k / 1e6, the
 * decimal k × 10⁻⁶ has at most 15 significant digits and reads back to value (the division and
 * the parse both round the same exact quotient). Two decimals of at most 15 significant digits
 * never read back to one double, so no other text of as few digits does: it is the shortest,
 * which `String` writes, in fixed notation (from 1e-6 to below 1e21). Anything else (an
 * unrounded value, -0, large values) goes to `String`.
 */

const MILLION = 1_000_000;
const LIMIT = 1e15;

/** "000" to "999", and the same without trailing zeros. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, value) => String(value).padStart(3, '0'));
const THREE_TRIMMED = THREE_DIGITS.map((digits) => digits.replace(/0+$/, ''));

export function metricText(value: number): string {
  const millionths = Math.round(value * MILLION);
  if (
    !(Math.abs(millionths) < LIMIT) ||
    millionths / MILLION !== value ||
    (value === 0 && 1 / value < 0)
  ) {
    return String(value);
  }
  const magnitude = millionths < 0 ? -millionths : millionths;
  const whole = Math.floor(magnitude / MILLION);
  const fraction = magnitude - whole * MILLION;
  let text = String(whole);
  if (fraction !== 0) {
    const high = Math.floor(fraction / 1000);
    const low = fraction - high * 1000;
    text += low === 0 ? `.${THREE_TRIMMED[high]}` : `.${THREE_DIGITS[high]}${THREE_TRIMMED[low]}`;
  }
  return millionths < 0 ? `-${text}` : text;
}
