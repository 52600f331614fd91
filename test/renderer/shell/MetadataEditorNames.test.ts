// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import MetadataEditor from '../../../renderer/src/components/MetadataEditor.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

/**
 * WCAG 2.5.3 label in name: a button showing words is named by a name that starts with them,
 * so that "click Add entry" by voice finds it. In every language.
 */
describe('the metadata editor: label in name', () => {
  test.each(['en', 'de', 'it'] as const)(
    'in %s each worded button is named by its words',
    async (locale) => {
      i18n.global.locale.value = locale;
      const app = await mountWithApp(MetadataEditor, { props: { modelValue: { floors: 3 } } });
      const worded = app.wrapper.findAll('button').filter((button) => button.text().trim() !== '');
      expect(worded.length).toBeGreaterThan(0);
      for (const button of worded) {
        const name = button.attributes('aria-label') ?? button.text();
        expect(name.startsWith(button.text().trim()), `${name} / ${button.text()}`).toBe(true);
      }
      const add = worded.find((button) => button.attributes('id')?.endsWith('-add'))!;
      expect(add.attributes('aria-label')).toBe(
        {
          en: 'Add entry (metadata)',
          de: 'Eintrag hinzufügen (Metadaten)',
          it: 'Aggiungi voce (metadati)',
        }[locale],
      );
    },
  );
});
