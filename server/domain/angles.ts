/** Degree-based trigonometry and angle normalisation shared by the solar geometry modules. */

export const DEG_TO_RAD = Math.PI / 180;
export const RAD_TO_DEG = 180 / Math.PI;

export function sinDeg(angleDeg: number): number {
  return Math.sin(angleDeg * DEG_TO_RAD);
}

export function cosDeg(angleDeg: number): number {
  return Math.cos(angleDeg * DEG_TO_RAD);
}

export function tanDeg(angleDeg: number): number {
  return Math.tan(angleDeg * DEG_TO_RAD);
}

/** `angle` mapped into [0, 360). */
export function normalizeDeg360(angleDeg: number): number {
  const wrapped = angleDeg % 360;
  return wrapped < 0 ? wrapped + 360 : wrapped;
}

/** `angle` mapped into [−180, 180). */
export function normalizeDeg180(angleDeg: number): number {
  return normalizeDeg360(angleDeg + 180) - 180;
}

/** Clamps `value` into [−1, 1] so rounding never makes `acos`/`asin` return NaN. */
export function clampUnit(value: number): number {
  return value > 1 ? 1 : value < -1 ? -1 : value;
}
