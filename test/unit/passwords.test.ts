import { describe, expect, test } from 'vitest';
import { hashPassword, PasswordChecker, verifyPassword } from '../../server/auth/passwords.ts';
import { TEST_SCRYPT_COST } from '../support/testServer.ts';

const COST = TEST_SCRYPT_COST;

/** Replaces one `$`-separated part of a stored hash. */
function withPart(stored: string, index: number, value: string): string {
  const parts = stored.split('$');
  parts[index] = value;
  return parts.join('$');
}

/** Flips one character of a base64url string, keeping it valid base64url of the same length. */
function flipFirstChar(text: string): string {
  return (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
}

describe('hashPassword / verifyPassword', () => {
  test('stores scheme, cost, salt and hash, and verifies the right password', async () => {
    const stored = await hashPassword('correct horse', COST);
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '1024', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
  });

  test('salts every hash: the same password hashes differently', async () => {
    const [first, second] = await Promise.all([
      hashPassword('same', COST),
      hashPassword('same', COST),
    ]);
    expect(first).not.toBe(second);
    await expect(verifyPassword('same', first)).resolves.toBe(true);
    await expect(verifyPassword('same', second)).resolves.toBe(true);
  });

  test('rejects a wrong password, including near misses', async () => {
    const stored = await hashPassword('correct horse', COST);
    for (const wrong of ['Correct horse', 'correct horse ', 'correct hors', '']) {
      await expect(verifyPassword(wrong, stored)).resolves.toBe(false);
    }
  });

  test('treats Unicode forms of the same text as the same password (NFKC)', async () => {
    const stored = await hashPassword('caf\u00e9', COST);
    await expect(verifyPassword('cafe\u0301', stored)).resolves.toBe(true);
  });

  test('a tampered hash or salt fails', async () => {
    const stored = await hashPassword('secret', COST);
    const parts = stored.split('$');
    await expect(
      verifyPassword('secret', withPart(stored, 5, flipFirstChar(parts[5]!))),
    ).resolves.toBe(false);
    await expect(
      verifyPassword('secret', withPart(stored, 4, flipFirstChar(parts[4]!))),
    ).resolves.toBe(false);
    await expect(
      verifyPassword('secret', withPart(stored, 5, parts[5]!.slice(0, 20))),
    ).resolves.toBe(false);
    await expect(verifyPassword('secret', withPart(stored, 2, '16'))).resolves.toBe(false);
  });

  test('a malformed or corrupt stored value fails instead of throwing', async () => {
    const stored = await hashPassword('secret', COST);
    const corrupt = [
      '',
      'plaintext',
      'scrypt$1024$8$1',
      withPart(stored, 0, 'argon2id'),
      withPart(stored, 1, 'abc'),
      withPart(stored, 1, '1000'), // not a power of two
      withPart(stored, 1, '0'),
      withPart(stored, 1, '-1024'),
      withPart(stored, 1, '1073741824'), // would need 1 TiB
      withPart(stored, 2, '0'),
      withPart(stored, 3, '0'),
      withPart(stored, 3, '1e3'),
    ];
    for (const value of corrupt) {
      await expect(verifyPassword('secret', value), value).resolves.toBe(false);
    }
  });
});

describe('PasswordChecker', () => {
  test('hashes with its cost and checks against a stored hash', async () => {
    const checker = new PasswordChecker(COST);
    const stored = await checker.hash('pw-1');
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(checker.check('pw-1', stored)).resolves.toBe(true);
    await expect(checker.check('pw-2', stored)).resolves.toBe(false);
  });

  test('an unknown account (no stored hash) never matches, whatever the password', async () => {
    const checker = new PasswordChecker(COST);
    await expect(checker.check('anything', undefined)).resolves.toBe(false);
    await expect(checker.check('', undefined)).resolves.toBe(false);
  });
});
