import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder (trust auth, no
 * password), `postgres` on a free loopback port with its socket in that folder, one database,
 * and everything removed on `stop`. Durability is off (fsync, synchronous commit): the cluster
 * lives for one test run.
 *
 * initdb and postgres refuse to run as root. Run as root (a container, CI), the folder is made
 * for the `postgres` account (Debian's package creates it) and the binaries run through
 * `runuser -u postgres`; clients still connect over TCP as the superuser `postgres`.
 */

const run = promisify(execFile);

export interface PostgresCluster {
  /** A connection URL of the cluster's first database. */
  url: string;
  /** The URL of another database on the same cluster. */
  urlOf(database: string): string;
  stop(): Promise<void>;
  /** The server's log (gone after stop): what it said when a test failed. */
  logFile: string;
}

/** Where Debian installs each version's server binaries: /usr/lib/postgresql/<version>/bin. */
const DEBIAN_VERSIONS_DIR = '/usr/lib/postgresql';

/** The folder of initdb and pg_ctl: PLANTDESK_POSTGRES_BIN, else Debian's newest install. */
export function postgresBinDir(): string | undefined {
  const given = process.env.PLANTDESK_POSTGRES_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : undefined;
  let versions: string[];
  try {
    versions = readdirSync(DEBIAN_VERSIONS_DIR);
  } catch {
    return undefined;
  }
  return versions
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(DEBIAN_VERSIONS_DIR, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(database = 'plantdesk'): Promise<PostgresCluster> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found');
  const asRoot = userInfo().uid === 0;
  const superuser = asRoot ? 'postgres' : userInfo().username;
  const folder = mkdtempSync(join(tmpdir(), 'plantdesk-pg-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'postgres.log');
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(group.trim()));
    writeFileSync(logFile, '');
    chownSync(logFile, Number(stdout.trim()), Number(group.trim()));
  }
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(binDir, name), ...args])
      : run(join(binDir, name), args);

  const port = await freePort();
  let started = false;
  try {
    // C.UTF-8: text sorts by code point as SQLite's BINARY does, and lower() folds all of Unicode.
    await tool('initdb', [
      '-D',
      dataDir,
      '-U',
      superuser,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    const settings = [
      `-p ${port}`,
      `-k ${folder}`,
      '-h 127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=400',
    ].join(' ');
    await tool('pg_ctl', ['start', '-w', '-D', dataDir, '-l', logFile, '-o', settings]);
    started = true;
    const urlOf = (name: string) =>
      `postgres://${encodeURIComponent(superuser)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    await tool('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', superuser, database]);
    return {
      url: urlOf(database),
      urlOf,
      logFile,
      stop: async () => {
        try {
          await tool('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', dataDir]);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    if (started)
      await tool('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', dataDir]).catch(() => {});
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
