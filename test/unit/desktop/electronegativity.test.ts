import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { failed, scan } from '../../../scripts/electronegativity.ts';

/** The gate of `npm run test:security` must bite: an insecure window fails, a hardened one passes. */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function sample(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-eng-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
  return folder;
}

const SECURE_MAIN = `
import { app, BrowserWindow, session } from 'electron';
app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_c, _p, callback) => callback(false));
  const window = new BrowserWindow({
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.loadURL('app://plantdesk/index.html');
});
`;
const PAGE = `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'">
</head><body></body></html>`;

describe('electronegativity gate', () => {
  test('an insecure window fails with medium-or-worse findings', async () => {
    const folder = sample({
      'main.ts': `
        import { BrowserWindow } from 'electron';
        const window = new BrowserWindow({
          webPreferences: { nodeIntegration: true, contextIsolation: false, webSecurity: false },
        });
        window.loadURL('http://example.com');
      `,
    });
    const result = await scan([folder], folder);
    expect(failed(result)).toBe(true);
    const ids = result.findings.filter((f) => f.severity !== 'LOW').map((f) => f.id);
    expect(ids).toEqual(
      expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'WEB_SECURITY_JS_CHECK']),
    );
  });

  test('a hardened window with a CSP passes', async () => {
    const folder = sample({ 'main.ts': SECURE_MAIN, 'index.html': PAGE });
    const result = await scan([folder], folder);
    expect(result.errors).toEqual([]);
    expect(failed(result)).toBe(false);
  });

  test('a file it cannot parse fails the gate', async () => {
    const folder = sample({ 'main.ts': SECURE_MAIN, 'index.html': PAGE, 'broken.ts': 'const = ;' });
    const result = await scan([folder], folder);
    expect(failed(result)).toBe(true);
    expect(result.errors.map((e) => path.basename(e.file))).toContain('broken.ts');
  });
});
