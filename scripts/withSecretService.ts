/**
 * `node scripts/withSecretService.ts <command...>` runs the command with a working OS keychain
 * on Linux: a private D-Bus session bus and an unlocked gnome-keyring on it, both in throwaway
 * folders, so keychain tests never touch (or need) the developer's own keyring. The command gets
 * PLANTDESK_SECRET_SERVICE=1 and the bus address; its HOME and other variables stay as they were
 * (npm and vitest need the real HOME). Both daemons are ended afterwards; the command's exit code
 * is this script's.
 *
 * Without dbus-daemon or gnome-keyring-daemon (macOS, Windows, a bare Linux) the command runs
 * as is and the keychain tests skip themselves, unless PLANTDESK_REQUIRE_SECRET_SERVICE=1 (CI),
 * which makes that an error.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const PACKAGES = 'dbus-x11 gnome-keyring';
const READY_TIMEOUT_MS = 10_000;

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/withSecretService.ts <command> [args...]');
  process.exit(2);
}

// Lets `node scripts/withSecretService.ts vitest run` work outside npm scripts too.
const projectBin = resolve(import.meta.dirname, '..', 'node_modules', '.bin');
const basePath = [projectBin, process.env.PATH ?? ''].join(delimiter);

process.exitCode = await main();

async function main(): Promise<number> {
  const missing = ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send'].filter(
    (tool) => !onPath(tool),
  );
  if (process.platform !== 'linux' || missing.length > 0) {
    const why =
      process.platform !== 'linux'
        ? `not on Linux (${process.platform})`
        : `${missing.join(', ')} not found`;
    if (process.env.PLANTDESK_REQUIRE_SECRET_SERVICE === '1') {
      console.error(
        `withSecretService: a Secret Service is required (PLANTDESK_REQUIRE_SECRET_SERVICE=1) but ${why}; ` +
          `install the Debian packages: apt-get install -y --no-install-recommends ${PACKAGES}`,
      );
      return 1;
    }
    console.warn(
      `withSecretService: ${why}; running without a Secret Service (keychain tests skip).`,
    );
    return run(command, { ...process.env, PATH: basePath });
  }

  const scratch = mkdtempSync(join(tmpdir(), 'plantdesk-keyring-'));
  const daemons: ChildProcess[] = [];
  try {
    const bus = await startBus(daemons);
    await startKeyring(daemons, bus, scratch);
    return await run(command, {
      ...process.env,
      PATH: basePath,
      DBUS_SESSION_BUS_ADDRESS: bus,
      PLANTDESK_SECRET_SERVICE: '1',
    });
  } catch (error) {
    console.error(`withSecretService: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    // The keyring first: it would otherwise notice the bus going away and complain.
    for (const daemon of daemons.reverse()) await stop(daemon);
    rmSync(scratch, { recursive: true, force: true });
  }
}

function onPath(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

/** A private session bus; answers its address. */
async function startBus(daemons: ChildProcess[]): Promise<string> {
  // stderr ignored: as root it warns that it cannot raise its file limit, which is harmless.
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--nosyslog', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  daemons.push(bus);
  const lines = createInterface({ input: bus.stdout! });
  const address = await new Promise<string>((resolveAddress, reject) => {
    const timer = setTimeout(
      () => reject(new Error('dbus-daemon gave no address')),
      READY_TIMEOUT_MS,
    );
    bus.once('error', reject);
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolveAddress(line.trim());
    });
  });
  lines.close();
  return address;
}

/**
 * gnome-keyring's secrets component on that bus, its "login" keyring created and unlocked with a
 * throwaway password. It keeps its files in fresh folders (HOME, XDG_RUNTIME_DIR) of its own.
 */
async function startKeyring(daemons: ChildProcess[], bus: string, scratch: string): Promise<void> {
  const home = join(scratch, 'home');
  const runtime = join(scratch, 'runtime');
  for (const folder of [home, runtime]) mkdirSync(folder, { mode: 0o700 });
  const keyring = spawn(
    'gnome-keyring-daemon',
    ['--foreground', '--unlock', '--components=secrets'],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {
        ...process.env,
        HOME: home,
        XDG_RUNTIME_DIR: runtime,
        DBUS_SESSION_BUS_ADDRESS: bus,
      },
    },
  );
  daemons.push(keyring);
  keyring.stdin!.end('plantdesk-test-keyring');
  const exited = new Promise<never>((_, reject) => {
    keyring.once('error', reject);
    keyring.once('exit', (code) => reject(new Error(`gnome-keyring-daemon exited (${code})`)));
  });
  exited.catch(() => {});
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!secretServiceOnBus(bus)) {
    if (Date.now() > deadline)
      throw new Error('gnome-keyring-daemon did not register org.freedesktop.secrets');
    await Promise.race([exited, new Promise((wake) => setTimeout(wake, 50))]);
  }
}

/** Asks the bus itself, so that no call can start a second keyring through D-Bus activation. */
function secretServiceOnBus(bus: string): boolean {
  const answer = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      'string:org.freedesktop.secrets',
    ],
    { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus }, encoding: 'utf8' },
  );
  return answer.status === 0 && /boolean true/.test(answer.stdout);
}

/** Runs the command with the terminal, forwarding Ctrl-C and termination; answers its exit code. */
function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveCode) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: 'inherit',
      env,
      // npm's .bin entries are .cmd files on Windows.
      shell: process.platform === 'win32',
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      console.error(`withSecretService: cannot run ${argv[0]}: ${error.message}`);
      resolveCode(127);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolveCode(code ?? (signal ? 128 + signalNumber(signal) : 1));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGINT: 2, SIGTERM: 15, SIGKILL: 9 }[signal as string] ?? 1;
}

async function stop(daemon: ChildProcess): Promise<void> {
  if (daemon.exitCode !== null || daemon.signalCode !== null) return;
  const exited = new Promise((done) => daemon.once('exit', done));
  daemon.kill('SIGTERM');
  const timer = setTimeout(() => daemon.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
