// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import Select from 'primevue/select';
import { describe, expect, test } from 'vitest';
import App from '../../../renderer/src/App.vue';
import { useLanguageStore } from '../../../renderer/src/stores/useLanguageStore.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

const PRODUCTION = { id: 'acme', name: 'Acme', kind: 'production' as const };

async function mountApp() {
  const app = await mountWithApp(App, {
    environment: PRODUCTION,
    channels: {
      'app.setLanguage': ([locale]: unknown[]) => ({ chosen: locale as 'de' | null, system: 'en' }),
    },
  });
  const languageSelect = () =>
    app.wrapper.findAllComponents(Select).find((select) => select.classes('language-select'))!;
  return { ...app, languageSelect };
}

describe('the language', () => {
  test('a choice in the header applies at once: words, window title, page language, and is kept by the host', async () => {
    const app = await mountApp();
    expect(app.wrapper.text()).toContain('PRODUCTION · Acme');
    expect(document.title).toBe('PRODUCTION · Acme — PlantDesk (browser)');
    expect(app.languageSelect().find('[role="combobox"]').attributes('aria-label')).toBe(
      'Language',
    );

    app.languageSelect().vm.$emit('update:modelValue', 'de');
    await flushPromises();

    expect(
      app.calls.filter((call) => call.channel === 'app.setLanguage').map((call) => call.args),
    ).toEqual([['de']]);
    expect(app.wrapper.text()).toContain('PRODUKTION · Acme');
    expect(app.wrapper.text()).toContain(
      'Produktivumgebung: Änderungen wirken sich auf echte Anlagen aus.',
    );
    expect(document.title).toBe('PRODUKTION · Acme — PlantDesk (Browser)');
    expect(document.documentElement.lang).toBe('de');
    expect(app.languageSelect().find('[role="combobox"]').attributes('aria-label')).toBe('Sprache');
  });

  test('“as the system” follows the system again, and names the system’s language', async () => {
    const app = await mountApp();
    const language = useLanguageStore();
    language.start({ host: 'electron', language: { chosen: 'it', system: 'de' } });
    await flushPromises();
    expect(document.title).toBe('PRODUZIONE · Acme — PlantDesk (browser)');
    const options = app.languageSelect().props('options') as { value: string; label: string }[];
    expect(options.map((option) => option.label)).toEqual([
      'Come il sistema (Deutsch)',
      'English',
      'Deutsch',
      'Italiano',
    ]);

    app.languageSelect().vm.$emit('update:modelValue', 'system');
    await flushPromises();
    expect(
      app.calls.filter((call) => call.channel === 'app.setLanguage').map((call) => call.args),
    ).toEqual([[null]]);
    expect(language.locale).toBe('en');
  });

  test('in browser mode the system is the browser’s languages', async () => {
    await mountApp();
    const language = useLanguageStore();
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    Object.defineProperty(navigator, 'languages', { value: ['it-CH', 'de'], configurable: true });
    try {
      language.start({ host: 'web', language: { chosen: null, system: 'en' } });
      expect(language.locale).toBe('it');
    } finally {
      if (languages) Object.defineProperty(navigator, 'languages', languages);
    }
  });
});
