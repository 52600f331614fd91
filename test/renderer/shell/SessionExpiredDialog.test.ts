// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import SessionExpiredDialog from '../../../renderer/src/components/SessionExpiredDialog.vue';
import { useSessionStore } from '../../../renderer/src/stores/useSessionStore.ts';
import { apiError, mountWithApp, TEST_USER } from '../support/mountWithApp.ts';

/** A screen with unsaved input, and the dialog over it as App.vue places it. */
const Screen = defineComponent({
  setup() {
    const draft = ref('');
    return () =>
      h('div', [
        h('label', { for: 'draft' }, 'Plant name'),
        h('input', {
          id: 'draft',
          value: draft.value,
          onInput: (event: Event) => (draft.value = (event.target as HTMLInputElement).value),
        }),
        h(SessionExpiredDialog),
      ]);
  },
});

const SIGNED_IN = { environmentId: 'local', status: 'signedIn' as const, user: TEST_USER };

async function expire(signInAnswer: unknown = SIGNED_IN) {
  const app = await mountWithApp(Screen, {
    route: '/plants/new',
    channels: { 'session.signIn': signInAnswer },
  });
  await app.wrapper.get('#draft').setValue('Casa Rossi (unsaved)');
  // What the host sends when the refresh token is refused: the new state, then the expiry.
  app.emit('session.changed', { environmentId: 'local', status: 'signedOut' });
  app.emit('session.expired', {
    environmentId: 'local',
    email: TEST_USER.email,
    message: 'Your session on Local sandbox has ended. Sign in again to continue.',
  });
  await app.settle();
  return app;
}

function field(app: Awaited<ReturnType<typeof expire>>, label: string) {
  const id = app.wrapper
    .findAll('label')
    .find((candidate) => candidate.text() === label)!
    .attributes('for');
  return app.wrapper.get(`[id="${id}"]`);
}

describe('SessionExpiredDialog', () => {
  test('asks for the password over the screen, which keeps its input, and stays there', async () => {
    const app = await expire();
    const dialog = app.wrapper.get('[role="dialog"]');
    expect(dialog.text()).toContain('Your session on Local sandbox has ended');
    expect((field(app, 'Email').element as HTMLInputElement).value).toBe(TEST_USER.email);
    // The user's permissions stay while the dialog is open: no flicker of disabled actions.
    expect(useSessionStore().user?.email).toBe(TEST_USER.email);

    await field(app, 'Password').setValue('installer-pass-1');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();

    expect(app.calls.find((call) => call.channel === 'session.signIn')?.args).toEqual([
      { email: TEST_USER.email, password: 'installer-pass-1', remember: false },
    ]);
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(false);
    expect((app.wrapper.get('#draft').element as HTMLInputElement).value).toBe(
      'Casa Rossi (unsaved)',
    );
    expect(app.router.currentRoute.value.name).toBe('plantNew');
    expect(useSessionStore().signedIn).toBe(true);
  });

  test("a refused password shows the server's message and keeps the dialog", async () => {
    const app = await expire(apiError(401, 'Invalid e-mail or password'));
    await field(app, 'Password').setValue('wrong');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(app.wrapper.get('[role="alert"]').text()).toBe('Invalid e-mail or password');
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(true);
  });

  test('Sign out goes to the sign-in screen with the email and the reason', async () => {
    const app = await expire();
    const signOut = app.wrapper
      .findAll('[role="dialog"] button')
      .find((button) => button.text() === 'Sign out')!;
    await signOut.trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.name).toBe('signIn');
    const session = useSessionStore();
    expect(session.expired).toBeNull();
    expect(session.notice).toEqual({
      email: TEST_USER.email,
      message: 'Your session on Local sandbox has ended. Sign in again to continue.',
    });
    expect(session.user).toBeUndefined();
  });
});
