import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; stored with each hash so they can be raised later. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return [
    'scrypt',
    cost.N,
    cost.r,
    cost.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Verifies against a real hash for unknown accounts too, so that a login for an address that
 * has no account takes as long as one with a wrong password.
 */
export class PasswordChecker {
  readonly #cost: ScryptCost;
  #decoy: Promise<string> | undefined;

  constructor(cost: ScryptCost = DEFAULT_SCRYPT_COST) {
    this.#cost = cost;
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.#cost);
  }

  async check(password: string, stored: string | undefined): Promise<boolean> {
    this.#decoy ??= hashPassword(randomBytes(12).toString('base64url'), this.#cost);
    const target = stored ?? (await this.#decoy);
    const matches = await verifyPassword(password, target);
    return stored !== undefined && matches;
  }
}
