// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import SignInForm from '../../../renderer/src/components/SignInForm.vue';
import { PlantDeskError } from '../../../renderer/src/bridge.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';
import { button, control, fieldErrors } from '../support/queries.ts';

/** The credentials form of the sign-in screen and of the comparison's sign-in in place. */

const SANDBOX = { id: 'sandbox', name: 'Shared sandbox' };

function mountForm(props: Record<string, unknown> = {}) {
  return mountWithApp(SignInForm, {
    props: { environment: SANDBOX, submitLabel: 'Sign in', ...props },
  });
}

function submitted(app: Awaited<ReturnType<typeof mountForm>>) {
  return app.wrapper.emitted('submit') ?? [];
}

describe('SignInForm', () => {
  test('names every control, and the form after the environment it signs in to', async () => {
    const app = await mountForm({ submitLabel: 'Sign in to Shared sandbox and compare' });
    expect(app.wrapper.get('form').attributes('aria-label')).toBe('Sign in to Shared sandbox');
    expect(control(app.wrapper, 'Email').attributes('type')).toBe('email');
    expect(control(app.wrapper, 'Password').attributes('type')).toBe('password');
    expect(control(app.wrapper, 'Remember email').attributes('type')).toBe('checkbox');
    expect(button(app.wrapper, 'Sign in to Shared sandbox and compare').exists()).toBe(true);
  });

  test('submits the credentials once both are given, and keeps no password after', async () => {
    const app = await mountForm({ initialEmail: 'installer@plantdesk.test' });
    const submit = button(app.wrapper, 'Sign in');
    expect(control(app.wrapper, 'Email').element.value).toBe('installer@plantdesk.test');
    expect(submit.attributes('disabled')).toBeDefined();

    await control(app.wrapper, 'Password').setValue('installer-pass-1');
    await control(app.wrapper, 'Remember email').setValue(true);
    expect(submit.attributes('disabled')).toBeUndefined();
    await app.wrapper.get('form').trigger('submit');
    expect(submitted(app)).toEqual([
      [{ email: 'installer@plantdesk.test', password: 'installer-pass-1', remember: true }],
    ]);
    expect(control(app.wrapper, 'Password').element.value).toBe('');
  });

  test('refuses a blank email on its field and sends nothing', async () => {
    const app = await mountForm();
    await control(app.wrapper, 'Email').setValue('   ');
    await control(app.wrapper, 'Password').setValue('installer-pass-1');
    await app.wrapper.get('form').trigger('submit');
    expect(submitted(app)).toEqual([]);
    expect(fieldErrors(app.wrapper)).toEqual(['Required']);
    expect(control(app.wrapper, 'Email').attributes('aria-invalid')).toBe('true');
  });

  test("shows the server's message it is given, and the fallback for one without", async () => {
    const app = await mountForm({ failedMessage: 'Could not sign in' });
    const refused = new PlantDeskError({
      kind: 'api',
      status: 401,
      error: 'Unauthorized',
      message: 'Invalid e-mail or password',
      path: '/auth/login',
    });
    await app.wrapper.setProps({ error: refused });
    expect(app.wrapper.get('[role="alert"]').text()).toBe('Invalid e-mail or password');

    await app.wrapper.setProps({ error: new Error('') });
    expect(app.wrapper.get('[role="alert"]').text()).toBe('Could not sign in');

    await app.wrapper.setProps({ error: null });
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
  });

  test('a refusal naming the email goes on that field', async () => {
    const app = await mountForm();
    await app.wrapper.setProps({
      error: new PlantDeskError({
        kind: 'invalidArguments',
        message: 'email is required',
      }),
    });
    expect(fieldErrors(app.wrapper)).toEqual(['email is required']);
  });

  test('another environment empties the password; a remembered email replaces the typed one', async () => {
    const app = await mountForm();
    await control(app.wrapper, 'Email').setValue('typed@plantdesk.test');
    await control(app.wrapper, 'Password').setValue('installer-pass-1');
    await app.wrapper.setProps({ environment: { id: 'local', name: 'Local sandbox' } });
    expect(control(app.wrapper, 'Password').element.value).toBe('');
    expect(control(app.wrapper, 'Email').element.value).toBe('typed@plantdesk.test');

    await app.wrapper.setProps({ initialEmail: 'admin@plantdesk.test', initialRemember: true });
    expect(control(app.wrapper, 'Email').element.value).toBe('admin@plantdesk.test');
    expect(control(app.wrapper, 'Remember email').element.checked).toBe(true);
  });

  test("names its controls in the user's language", async () => {
    i18n.global.locale.value = 'de';
    try {
      const app = await mountForm();
      expect(app.wrapper.get('form').attributes('aria-label')).toBe('Bei Shared sandbox anmelden');
      for (const label of ['E-Mail', 'Passwort', 'E-Mail merken']) {
        expect(control(app.wrapper, label).exists()).toBe(true);
      }
    } finally {
      i18n.global.locale.value = 'en';
    }
  });
});
