import { config } from '@vue/test-utils';
import { beforeEach } from 'vitest';
import { i18n } from '../../../renderer/src/i18n.ts';

/**
 * Every component test mounts with the app's vue-i18n, as main.ts installs it, in English (the
 * source) unless the test switches: a test that changes the language cannot leak it into the next.
 */
config.global.plugins.push(i18n);

beforeEach(() => {
  i18n.global.locale.value = 'en';
});
