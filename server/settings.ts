import { randomBytes } from 'node:crypto';
import type { Db } from './db/database.ts';

/**
 * The JWT signing secret: from the environment when given, else generated once and kept in the
 * database so that tokens survive a restart.
 */
export async function signingSecret(
  db: Db,
  fromEnvironment: string | undefined,
): Promise<Uint8Array> {
  if (fromEnvironment) return new TextEncoder().encode(fromEnvironment);
  const key = 'jwt_secret';
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  if (stored) return Buffer.from(stored.value, 'base64url');
  const secret = randomBytes(32);
  await db
    .insertInto('settings')
    .values({ key, value: secret.toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const winner = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Buffer.from(winner.value, 'base64url');
}
