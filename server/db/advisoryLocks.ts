import type pg from 'pg';

/**
 * PostgreSQL advisory locks the server instances on one database take, each a fixed 64-bit key
 * (arbitrary: they only have to differ from one another and from other applications' on the
 * same database).
 */
export const ADVISORY_LOCKS = {
  /** Migrating and seeding at start: one instance at a time, the others wait. */
  startup: '5000537601',
  /** Running the simulator: held for as long as the instance runs it. */
  simulator: '5000537602',
} as const;

/**
 * Runs `work` holding a session-level advisory lock, on a connection of its own taken from
 * `pool` for the duration (the work itself may use any connection). Waits for the lock.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [key]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => {
        broken = true;
      });
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: it is closed, not reused.
    client.release(broken);
  }
}
