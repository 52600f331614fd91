import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * `sensors.sign_inverted` (the `signInverted` extension of the sensor resource): 1 when the
 * meter is mounted backwards and the server negates its readings as they arrive. Booleans are
 * integers on both engines (tables.ts), so this statement is the same on each; an existing
 * sensor is taken as mounted right (0), which is what its stored readings already assume.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await sql`alter table sensors add column sign_inverted integer not null default 0
    check (sign_inverted in (0, 1))`.execute(db);
}
