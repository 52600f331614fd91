import { describe, expect, test } from 'vitest';
import type { MessageBoxOptions } from 'electron';
import { createAddressConfirmation } from '../../../electron/main/addressConfirmation.ts';

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
});
