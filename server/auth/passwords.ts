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
  const cost = storedCost(n, r, p);
  if (!cost) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Memory scrypt needs is 128·N·r bytes; a stored hash asking for more than this is corrupt. */
const MAX_SCRYPT_MEMORY_BYTES = 256 * 1024 * 1024;

/**
 * The cost parameters of a stored hash, or null when they are not ones we could have written:
 * a corrupt or tampered row must fail verification, not throw (a 500) or make scrypt try to
 * allocate gigabytes.
 */
function storedCost(n: string, r: string, p: string): ScryptCost | null {
  const [N, blockSize, parallelism] = [n, r, p].map((part) =>
    /^[1-9]\d{0,7}$/.test(part) ? Number(part) : 0,
  ) as [number, number, number];
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || blockSize < 1 || parallelism < 1 || parallelism > 16) return null;
  if (128 * N * blockSize > MAX_SCRYPT_MEMORY_BYTES) return null;
  return { N, r: blockSize, p: parallelism };
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
