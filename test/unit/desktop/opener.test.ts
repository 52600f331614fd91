import { describe, expect, test } from 'vitest';
import { openerCommand } from '../../../electron/web/opener.ts';

describe('the browser opener', () => {
  const hostile = 'http://127.0.0.1:5173/?code=a|calc.exe&b^c"d';

  test('never goes through a shell on Windows: the address is one argument of rundll32', () => {
    expect(openerCommand('win32', hostile)).toEqual([
      'rundll32.exe',
      ['url.dll,FileProtocolHandler', hostile],
    ]);
  });

  test.each([
    ['darwin', 'open'],
    ['linux', 'xdg-open'],
    ['freebsd', 'xdg-open'],
  ] as const)('%s: %s with the address untouched', (platform, command) => {
    expect(openerCommand(platform, hostile)).toEqual([command, [hostile]]);
  });
});
