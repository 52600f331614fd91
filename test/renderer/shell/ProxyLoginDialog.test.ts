// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import ProxyLoginDialog from '../../../renderer/src/components/ProxyLoginDialog.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp, type MountedApp } from '../support/mountWithApp.ts';

/** The host's question for a proxy's user name and password, answered in the window. */

const ASKED = {
  requestId: '3f1c9a52-0d4e-4b7a-9c1e-2a8b6c4d5e6f',
  host: 'proxy.corp.example',
  port: 3128,
  realm: 'Corp web gateway',
  scheme: 'basic',
  refused: false,
};

async function asked(refused = false) {
  const app = await mountWithApp(ProxyLoginDialog, { channels: { 'proxyAuth.answer': true } });
  app.emit('proxyAuth.requested', { ...ASKED, refused });
  await app.settle();
  return app;
}

/** The control a visible label names: every control of the dialog has one. */
function labelled(app: MountedApp, label: string) {
  const id = app.wrapper
    .findAll('label')
    .find((candidate) => candidate.text() === label)
    ?.attributes('for');
  expect(id, `a control labelled "${label}"`).toBeDefined();
  return app.wrapper.get(`[id="${id}"]`);
}

function answers(app: MountedApp) {
  return app.calls.filter((call) => call.channel === 'proxyAuth.answer').map((call) => call.args);
}

describe('ProxyLoginDialog', () => {
  test('asks for the proxy, and sends the answer with "remember" to the host', async () => {
    const app = await asked();
    const dialog = app.wrapper.get('[role="dialog"]');
    expect(dialog.text()).toContain('The proxy proxy.corp.example:3128 asks for a user name');
    expect(dialog.text()).toContain('Corp web gateway');
    expect(dialog.text()).not.toContain('refused');
    await labelled(app, 'Proxy user name').setValue(' alice ');
    await labelled(app, 'Proxy password').setValue('s3cret');
    await labelled(app, "Remember for this proxy (kept in this computer's keychain)").setValue(
      true,
    );
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(answers(app)).toEqual([
      [ASKED.requestId, { username: 'alice', password: 's3cret', remember: true }],
    ]);
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(false);
  });

  test('cancel answers nothing but "cancelled"; a user name is required', async () => {
    const app = await asked();
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(app.wrapper.get('[role="alert"]').text()).toBe('Enter the proxy user name.');
    expect(answers(app)).toEqual([]);
    const cancel = app.wrapper.findAll('button').find((button) => button.text() === 'Cancel')!;
    await cancel.trigger('click');
    await app.settle();
    expect(answers(app)).toEqual([[ASKED.requestId, null]]);
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(false);
  });

  test("says when the proxy refused the last answer, in the user's language", async () => {
    i18n.global.locale.value = 'de';
    try {
      const app = await asked(true);
      expect(app.wrapper.get('[role="dialog"]').text()).toContain(
        'Der Proxy hat diesen Benutzernamen oder dieses Passwort abgelehnt.',
      );
      labelled(app, 'Benutzername für den Proxy');
      labelled(app, 'Passwort für den Proxy');
      // Every button has a name: its words, or (the dialog's close button) its label.
      const names = app.wrapper
        .findAll('[role="dialog"] button')
        .map((button) => button.text() || button.attributes('aria-label'));
      expect(names.every(Boolean)).toBe(true);
      expect(names).toEqual(expect.arrayContaining(['Abbrechen', 'Am Proxy anmelden']));
    } finally {
      i18n.global.locale.value = 'en';
    }
  });
});
