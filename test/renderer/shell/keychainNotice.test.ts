// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import App from '../../../renderer/src/App.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

/** A missing keychain's notice, when the host sends no words of its own: the app's, translated. */

const ENGLISH =
  'No system keychain is available, so PlantDesk cannot remember your sign-in: you will be asked for your password each time you start it.';

const info = (
  keychain: { available: boolean },
  language: { chosen: 'de' | null; system: string },
) => ({
  name: 'PlantDesk',
  version: '0.0.0-test',
  host: 'web' as const,
  keychain,
  now: Date.parse('2026-06-21T10:00:00Z'),
  language,
});

describe('the missing-keychain notice', () => {
  afterEach(() => {
    i18n.global.locale.value = 'en';
  });

  test('app.info without a message shows the app’s own words', async () => {
    const app = await mountWithApp(App, {
      route: '/plants',
      channels: {
        'app.info': info({ available: false }, { chosen: null, system: 'en' }),
      },
    });
    await app.settle();
    expect(app.wrapper.find('.keychain-notice').text()).toContain(ENGLISH);
  });

  test('the host’s event without a message, worded in the language of the moment', async () => {
    const app = await mountWithApp(App, { route: '/plants' });
    app.emit('keychain.unavailable', { available: false });
    await app.settle();
    expect(app.wrapper.find('.keychain-notice').text()).toContain(ENGLISH);
    i18n.global.locale.value = 'de';
    await app.settle();
    const notice = app.wrapper.find('.keychain-notice').text();
    expect(notice).toContain('Es ist kein Schlüsselbund des Systems verfügbar');
  });
});
