// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { LocalSandboxState } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../../../renderer/src/bridge.ts';
import { useEnvironmentStore } from '../../../renderer/src/stores/useEnvironmentStore.ts';
import LocalSandboxStatus from '../../../renderer/src/components/LocalSandboxStatus.vue';
import OfflineBanner from '../../../renderer/src/components/OfflineBanner.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp, networkError, type MountedApp } from '../support/mountWithApp.ts';

/**
 * The Local sandbox's state and its Start, Stop and Restart controls; and the "cannot reach"
 * banner following whether the server can be reached (the sandbox's state, a draft's send).
 */

const RUNNING: LocalSandboxState = { status: 'running', url: 'http://127.0.0.1:4010', restarts: 0 };
const STOPPED: LocalSandboxState = { status: 'stopped', restarts: 0 };

function buttonNames(app: MountedApp): string[] {
  return app.wrapper.findAll('button').map((button) => button.attributes('aria-label') ?? '');
}

function button(app: MountedApp, name: string) {
  const found = app.wrapper
    .findAll('button')
    .find((candidate) => candidate.attributes('aria-label') === name);
  if (!found) throw new Error(`no button "${name}" among ${buttonNames(app).join(', ')}`);
  return found;
}

const statusText = (app: MountedApp) => app.wrapper.get('[role="status"]').text();

describe('LocalSandboxStatus', () => {
  test('running: Restart and Stop, each named; Stop stops it and Start starts it again', async () => {
    const app = await mountWithApp(LocalSandboxStatus, {
      channels: { 'localSandbox.stop': STOPPED, 'localSandbox.start': RUNNING },
    });
    expect(statusText(app)).toContain('Local sandbox: Running');
    expect(buttonNames(app)).toEqual(['Restart the Local sandbox', 'Stop the Local sandbox']);

    await button(app, 'Stop the Local sandbox').trigger('click');
    await app.settle();
    expect(app.calls.map((call) => call.channel)).toContain('localSandbox.stop');
    expect(statusText(app)).toContain('Local sandbox: Stopped');
    expect(buttonNames(app)).toEqual(['Start the Local sandbox']);

    await button(app, 'Start the Local sandbox').trigger('click');
    await app.settle();
    expect(app.calls.map((call) => call.channel)).toContain('localSandbox.start');
    expect(statusText(app)).toContain('Local sandbox: Running');
  });

  test('follows the host: starting, failed with its reason (Start, Restart), restarting', async () => {
    const app = await mountWithApp(LocalSandboxStatus);
    app.emit('localSandbox.changed', { status: 'starting', restarts: 0 });
    await app.settle();
    expect(statusText(app)).toContain('Starting…');
    expect(buttonNames(app)).toEqual(['Stop the Local sandbox']);

    app.emit('localSandbox.changed', {
      status: 'failed',
      message: 'The Local sandbox server exited with code 1; gave up after 5 restarts',
      restarts: 5,
    });
    await app.settle();
    expect(statusText(app)).toContain('Failed: The Local sandbox server exited with code 1');
    expect(buttonNames(app)).toEqual(['Start the Local sandbox', 'Restart the Local sandbox']);

    app.emit('localSandbox.changed', { status: 'restarting', restarts: 1 });
    await app.settle();
    expect(statusText(app)).toContain('Restarting…');
  });

  test('a refused action says so; the controls are not pressed twice meanwhile', async () => {
    let release!: () => void;
    const app = await mountWithApp(LocalSandboxStatus, {
      channels: {
        'localSandbox.stop': () =>
          new Promise((_resolve, reject) => {
            release = () => reject({ kind: 'internal', message: 'no such process' });
          }),
      },
    });
    await button(app, 'Stop the Local sandbox').trigger('click');
    await app.settle();
    expect(statusText(app)).toContain('Stopping…');
    expect(button(app, 'Restart the Local sandbox').attributes('disabled')).toBeDefined();
    release();
    await app.settle();
    expect(statusText(app)).toContain('no such process');
  });

  test('hidden for another environment unless `always`; quiet while running when asked', async () => {
    const other = { environment: { id: 'acme', name: 'Acme', kind: 'sandbox' as const } };
    expect((await mountWithApp(LocalSandboxStatus, other)).wrapper.text()).toBe('');
    const always = await mountWithApp(LocalSandboxStatus, { ...other, props: { always: true } });
    expect(always.wrapper.text()).toContain('Local sandbox: Running');
    const quiet = await mountWithApp(LocalSandboxStatus, { props: { quietWhenRunning: true } });
    expect(quiet.wrapper.text()).toBe('');
  });
});

describe('the cannot-reach banner follows reachability', () => {
  const banner = (app: MountedApp) => app.wrapper.find('[role="alert"]');

  test('up while the active Local sandbox is stopped or failed, down once it runs', async () => {
    const app = await mountWithApp(OfflineBanner);
    expect(banner(app).exists()).toBe(false);
    app.emit('localSandbox.changed', STOPPED);
    await app.settle();
    expect(banner(app).text()).toContain(
      'Cannot reach Local sandbox. The Local sandbox is stopped.',
    );
    // The app's own reason follows a change of language at once.
    i18n.global.locale.value = 'de';
    await app.settle();
    expect(banner(app).text()).toContain(
      'Lokale Sandbox ist nicht erreichbar. Die lokale Sandbox ist gestoppt.',
    );
    i18n.global.locale.value = 'en';
    app.emit('localSandbox.changed', { status: 'starting', restarts: 0 });
    await app.settle();
    expect(banner(app).exists()).toBe(true);
    app.emit('localSandbox.changed', RUNNING);
    await app.settle();
    expect(banner(app).exists()).toBe(false);
  });

  test('switching to the Local sandbox while it is stopped raises it, and away lowers it', async () => {
    const app = await mountWithApp(OfflineBanner, {
      environment: { id: 'acme', name: 'Acme', kind: 'sandbox' },
      channels: {
        'localSandbox.state': STOPPED,
        'environments.select': ([id]: [string]) => ({ environmentId: id, status: 'signedOut' }),
      },
    });
    expect(banner(app).exists()).toBe(false);
    await useEnvironmentStore().select('local');
    await app.settle();
    expect(banner(app).text()).toContain('The Local sandbox is stopped.');
    await useEnvironmentStore().select('acme');
    await app.settle();
    expect(banner(app).exists()).toBe(false);
  });

  test('a draft sent (or refused in part) lowers it; an interrupted send does not', async () => {
    let outcome = 'interrupted';
    const app = await mountWithApp(OfflineBanner, {
      routes: { listPlants: networkError() },
      channels: { 'drafts.send': () => ({ outcome, message: '', draft: {} }) },
    });
    const bridge = useBridge();
    /** Whether the banner is up after the call. */
    async function upAfter(call: () => Promise<unknown>): Promise<boolean> {
      await call().catch(() => undefined);
      await app.settle();
      return banner(app).exists();
    }
    const send = (next: string) => () => {
      outcome = next;
      return bridge.invoke('drafts.send', '8d0f7c3e-5a4b-4c2d-9e1f-0a1b2c3d4e5f');
    };
    const unreachable = () => bridge.call('listPlants', {});

    expect(await upAfter(unreachable)).toBe(true);
    expect(await upAfter(send('interrupted'))).toBe(true);
    expect(await upAfter(send('refused'))).toBe(false);
    expect(await upAfter(unreachable)).toBe(true);
    expect(await upAfter(send('sent'))).toBe(false);
  });
});
