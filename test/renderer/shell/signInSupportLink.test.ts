// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { admits } from '../../../renderer/src/router.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { openSignInScreen } from '../support/signInScreen.ts';

/** Signed out (in a browser there is no Help menu), Help and support is one link away. */
describe('the sign-in screen', () => {
  test('links to Help and support, which opens signed out', async () => {
    const app = await openSignInScreen();
    const link = app.wrapper.findAll('a').find((a) => a.text() === 'Help and support');
    expect(link?.attributes('href')).toBe('/support');
    await link!.trigger('click');
    await app.settle();
    const route = app.router.currentRoute.value;
    expect(route.name).toBe('support');
    expect(admits(route.meta, { signedIn: false })).toBe(true);
  });

  test('names the link in the user’s language', async () => {
    i18n.global.locale.value = 'de';
    try {
      const app = await openSignInScreen();
      expect(app.wrapper.findAll('a').map((a) => a.text())).toContain('Hilfe und Support');
    } finally {
      i18n.global.locale.value = 'en';
    }
  });
});
