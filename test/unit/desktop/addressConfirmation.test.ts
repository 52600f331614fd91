import { describe, expect, test } from 'vitest';
import type { MessageBoxOptions } from 'electron';
import { createAddressConfirmation } from '../../../electron/main/addressConfirmation.ts';
import { createTranslator } from '../../../i18n/translator.ts';

describe('the production address confirmation', () => {
  const change = { name: 'Production', from: 'https://api.example', to: 'https://new.example' };

  test.each([
    [0, false],
    [1, true],
  ])(
    'button %i answers %s; keeping the address is the default and Escape',
    async (button, answer) => {
      const shown: MessageBoxOptions[] = [];
      const confirm = createAddressConfirmation({
        window: () => undefined,
        showMessageBox: async (_window, options) => {
          shown.push(options);
          return { response: button, checkboxChecked: false };
        },
        t: () => createTranslator('en'),
      });
      expect(await confirm(change)).toBe(answer);
      expect(shown[0]).toMatchObject({
        type: 'warning',
        message: 'Point Production to https://new.example?',
        buttons: ['Keep the current address', 'Change the address'],
        defaultId: 0,
        cancelId: 0,
      });
      expect(shown[0]!.detail).toContain('https://api.example');
    },
  );

  test('in the user’s language: Italian', async () => {
    const shown: MessageBoxOptions[] = [];
    const confirm = createAddressConfirmation({
      window: () => undefined,
      showMessageBox: async (_window, options) => {
        shown.push(options);
        return { response: 0, checkboxChecked: false };
      },
      t: () => createTranslator('it'),
    });
    await confirm(change);
    expect(shown[0]).toMatchObject({
      title: "Modifica dell'indirizzo di un ambiente di produzione",
      message: 'Collegare Production a https://new.example?',
      buttons: ["Mantieni l'indirizzo attuale", "Modifica l'indirizzo"],
    });
    expect(shown[0]!.detail).toMatch(/^Attualmente si collega a https:\/\/api\.example\./);
  });
});
