// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { apiError } from '../support/mountWithApp.ts';
import { openSignInScreen } from '../support/signInScreen.ts';
import { button, control } from '../support/queries.ts';

/** The sign-in screen signs in to the active environment through the shared credentials form. */
describe('the sign-in screen', () => {
  test('signs in with the remembered email and opens the fleet', async () => {
    const app = await openSignInScreen({
      rememberedEmail: 'installer@plantdesk.test',
      channels: {
        'session.signIn': ([input]: [{ email: string }]) => ({
          environmentId: 'local',
          status: 'signedIn',
          user: { email: input.email },
        }),
      },
    });
    expect(app.wrapper.get('form').attributes('aria-label')).toBe('Sign in to Local sandbox');
    expect(control(app.wrapper, 'Email').element.value).toBe('installer@plantdesk.test');
    expect(control(app.wrapper, 'Remember email').element.checked).toBe(true);

    await control(app.wrapper, 'Password').setValue('installer-pass-1');
    await button(app.wrapper, 'Sign in').trigger('submit');
    await app.settle();
    const signIn = app.calls.find((call) => call.channel === 'session.signIn')!;
    expect(signIn.args).toEqual([
      { email: 'installer@plantdesk.test', password: 'installer-pass-1', remember: true },
    ]);
    expect(app.router.currentRoute.value.name).toBe('fleet');
  });

  test("shows the server's refusal and stays", async () => {
    const app = await openSignInScreen({
      channels: { 'session.signIn': apiError(401, 'Invalid e-mail or password', '/auth/login') },
    });
    await control(app.wrapper, 'Email').setValue('installer@plantdesk.test');
    await control(app.wrapper, 'Password').setValue('not-the-password');
    await button(app.wrapper, 'Sign in').trigger('submit');
    await app.settle();
    const alerts = app.wrapper.findAll('[role="alert"]').map((alert) => alert.text());
    expect(alerts).toContain('Invalid e-mail or password');
    expect(app.router.currentRoute.value.name).toBe('signIn');
  });
});
