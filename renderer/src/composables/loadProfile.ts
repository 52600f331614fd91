/**
 * A load signature's hourly profile: 24 non-negative shares of a day's energy, one per local
 * hour, summing to 1 (api/schemas/catalogs.ts `HourlyProfile`). Pure functions, so the editor's
 * arithmetic is tested on its own.
 */

export const HOURS_PER_DAY = 24;

/** "00:00" … "23:00": the label of each hour. */
export const HOUR_LABELS: readonly string[] = Array.from(
  { length: HOURS_PER_DAY },
  (_, hour) => `${String(hour).padStart(2, '0')}:00`,
);

/** Every hour the same share. */
export function flatProfile(): number[] {
  return Array.from({ length: HOURS_PER_DAY }, () => 1 / HOURS_PER_DAY);
}

function cleanShare(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Any list of weights as a profile: 24 entries (missing ones count as 0, extra ones are
 * dropped), negatives and non-numbers count as 0, then scaled to sum to 1. Weights summing to
 * nothing give the flat profile.
 */
export function normalize(weights: readonly unknown[]): number[] {
  const cleaned = Array.from({ length: HOURS_PER_DAY }, (_, hour) => cleanShare(weights[hour]));
  const sum = cleaned.reduce((total, share) => total + share, 0);
  if (!(sum > 0) || !Number.isFinite(sum)) return flatProfile();
  return cleaned.map((share) => share / sum);
}

/**
 * Sets one hour's share (clamped to 0..1) and rescales the OTHER hours proportionally so the
 * profile still sums to 1. When the other hours hold nothing, the rest is spread evenly over
 * them. The edited hour keeps exactly the value given.
 */
export function setHour(profile: readonly number[], hour: number, value: number): number[] {
  if (!Number.isInteger(hour) || hour < 0 || hour >= HOURS_PER_DAY) {
    throw new RangeError(`hour must be an integer from 0 to ${HOURS_PER_DAY - 1}`);
  }
  const share = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  const current = normalize(profile);
  const rest = 1 - share;
  const othersSum = current.reduce(
    (total, other, index) => (index === hour ? total : total + other),
    0,
  );
  return current.map((other, index) => {
    if (index === hour) return share;
    if (rest <= 0) return 0;
    return othersSum > 0 ? (other / othersSum) * rest : rest / (HOURS_PER_DAY - 1);
  });
}

/**
 * Rounds every share to `decimals` places so that the rounded shares sum to exactly 1 (in
 * units of 10^-decimals; largest remainders get the leftover units). `keep` names an hour that
 * must not move (the one the user just typed): its value is rounded on its own and only the
 * other hours absorb the difference.
 */
export function roundProfile(
  profile: readonly number[],
  decimals: number,
  keep?: number,
): number[] {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 12) {
    throw new RangeError('decimals must be an integer from 0 to 12');
  }
  const shares = normalize(profile);
  const units = 10 ** decimals;
  const kept =
    keep !== undefined && keep >= 0 && keep < HOURS_PER_DAY
      ? Math.min(units, Math.round(shares[keep]! * units))
      : undefined;
  const indices = shares
    .map((_, index) => index)
    .filter((index) => index !== keep || kept === undefined);
  const target = units - (kept ?? 0);
  const othersSum = indices.reduce((total, index) => total + shares[index]!, 0);

  const scaled = indices.map((index) => {
    if (othersSum > 0) return (shares[index]! / othersSum) * target;
    return target / indices.length;
  });
  const whole = scaled.map((value) => Math.floor(value + 1e-9));
  let leftover = target - whole.reduce((total, value) => total + value, 0);
  // Largest fractional parts first; ties go to the earlier hour so the result is stable.
  const order = scaled
    .map((value, position) => ({ position, fraction: value - whole[position]! }))
    .sort((a, b) => b.fraction - a.fraction || a.position - b.position);
  for (let step = 0; leftover > 0; step = (step + 1) % order.length, leftover--) {
    whole[order[step]!.position]! += 1;
  }
  for (let step = 0; leftover < 0 && step < order.length * units; step++) {
    const position = order[order.length - 1 - (step % order.length)]!.position;
    if (whole[position]! > 0) {
      whole[position]! -= 1;
      leftover++;
    }
  }

  const result = new Array<number>(HOURS_PER_DAY).fill(0);
  indices.forEach((index, position) => (result[index] = whole[position]! / units));
  if (kept !== undefined && keep !== undefined) result[keep] = kept / units;
  return result;
}

/** The sum of the shares. */
export function profileSum(profile: readonly number[]): number {
  return profile.reduce((total, share) => total + share, 0);
}

/** Shares as percentages (for display), and back. */
export function toPercent(profile: readonly number[]): number[] {
  return profile.map((share) => share * 100);
}

/**
 * The editor's one step: the user typed `percent` for `hour`; the others rescale and every
 * share is rounded to `percentDecimals` places of a percent, the sum staying exactly 100 %.
 */
export function editHourPercent(
  profile: readonly number[],
  hour: number,
  percent: number,
  percentDecimals = 2,
): number[] {
  return roundProfile(setHour(profile, hour, percent / 100), percentDecimals + 2, hour);
}
