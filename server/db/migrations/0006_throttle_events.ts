import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * Attempts counted by rate limits that several server instances share (the login throttle and
 * the connection-test limit, server/auth/sharedWindows.ts): one row per attempt, counted over a
 * sliding window. Only PostgreSQL, where instances share a database, writes here; SQLite has one
 * process, which counts in memory. The table exists on both so that the schemas stay alike.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('throttle_events')
    // What is limited ('login-failure', 'login-address', 'connection-test').
    .addColumn('scope', 'text', (c) => c.notNull())
    // Whom: an account and address, an address, a user.
    .addColumn('subject', 'text', (c) => c.notNull())
    // When, epoch milliseconds by the server's clock.
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('throttle_events_by_subject')
    .on('throttle_events')
    .columns(['scope', 'subject', 'at_ms'])
    .execute();
  await db.schema
    .createIndex('throttle_events_by_time')
    .on('throttle_events')
    .column('at_ms')
    .execute();
}
