import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';

/**
 * The server's interactive reference under its strict Content-Security-Policy: Swagger UI still
 * renders the whole route table in Chromium, nothing is blocked, and no page can frame it.
 */

let server: ChildProcess | undefined;
let serverDir: string | undefined;
let url: string;

test.beforeAll(async () => {
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-docs-'));
  const port = await freePort();
  server = await startServer({
    port,
    dbFile: path.join(serverDir, 'docs.db'),
    args: ['--no-simulation'],
  });
  url = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  if (server) await stopServer(server);
  if (serverDir) fs.rmSync(serverDir, { recursive: true, force: true });
});

test('Swagger UI renders the API under its policy, and refuses to be framed', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${url}/docs`);
  await expect(page.getByRole('heading', { name: /Plant Energy API/ })).toBeVisible();
  await expect(page.getByText('/plants/{plantUuid}/sensors').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Authorize/ })).toBeVisible();
  expect(violations).toEqual([]);

  // A page of another origin that frames the docs gets nothing.
  await page.setContent(`<iframe title="framed docs" src="${url}/docs"></iframe>`);
  const frame = page.frameLocator('iframe[title="framed docs"]');
  await expect(frame.getByRole('heading', { name: /Plant Energy API/ })).toHaveCount(0);
});
