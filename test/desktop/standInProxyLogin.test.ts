import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  appUnderTest,
  startStandInApp,
  TEST_CLOCK,
  type StandInApp,
} from './standInElectron/harness.ts';

/**
 * The built app behind a corporate proxy that asks for a typed password (the stand-in's
 * STANDIN_ELECTRON_PROXY): an API call's session fetch meets the proxy's 407, the app asks the
 * page (proxyAuth.requested), answers the proxy's 'login' with what the page said, and sends the
 * call again. The server is the Local sandbox, addressed by a `.test` name only the proxy
 * reaches (loopback itself never goes through a proxy).
 */

const PROXY = 'http://alice:s3cret@proxy.corp.example:3128/Corp%20gateway';
const ADMIN = { email: 'admin@plantdesk.test', password: 'admin-pass-1', remember: false };

let app: StandInApp;

beforeAll(async () => {
  app = await startStandInApp({
    appRoot: appUnderTest(),
    clock: TEST_CLOCK,
    env: { STANDIN_ELECTRON_PROXY: PROXY },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The page's proxy questions once there are `count` of them. */
async function questions(count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const asked = (await app.eventPayloads('proxyAuth.requested')) as Record<string, unknown>[];
    if (asked.length >= count) return asked;
    if (Date.now() > deadline) throw new Error(`${asked.length} proxy questions, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a call that meets the proxy asks the page, signs in with its answer and goes through', async () => {
  const sandbox = (await app.untilSandboxRunning()) as { value: { url: string } };
  const port = new URL(sandbox.value.url).port;
  const origin = `https://api.plantdesk.test:${port}`;
  const added = (await app.call('environments.add', {
    name: 'Behind the proxy',
    kind: 'sandbox',
    baseUrl: origin,
  })) as { ok: boolean; value: { id: string } };
  expect(added.ok).toBe(true);
  expect(await app.call('environments.select', added.value.id)).toMatchObject({ ok: true });

  const signIn = app.call('session.signIn', ADMIN);
  const [first] = await questions(1);
  expect(first).toEqual({
    requestId: expect.any(String),
    host: 'proxy.corp.example',
    port: 3128,
    realm: 'Corp gateway',
    scheme: 'basic',
    refused: false,
  });
  // A wrong password: the proxy asks again, and the page says it was refused.
  const wrong = { username: 'alice', password: 'wrong', remember: false };
  expect(await app.call('proxyAuth.answer', first!.requestId, wrong)).toEqual({
    ok: true,
    value: true,
  });
  const [, second] = await questions(2);
  expect(second).toMatchObject({ refused: true, realm: 'Corp gateway' });
  const right = { username: 'alice', password: 's3cret', remember: false };
  // Only the window's own page answers, and only in the contract's shape.
  expect(
    await app.callAs('foreignContents', 'proxyAuth.answer', second!.requestId, right),
  ).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  expect(
    await app.call('proxyAuth.answer', second!.requestId, { ...right, realm: 'elsewhere' }),
  ).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
  await app.call('proxyAuth.answer', second!.requestId, right);

  expect(await signIn).toMatchObject({
    ok: true,
    value: { status: 'signedIn', user: { email: ADMIN.email } },
  });
  const state = await app.state();
  // The proxy's 'login' was answered on a request of the API's own session, to the server's origin.
  expect(state.netRequests).toEqual([{ partition: 'plantdesk-api', method: 'HEAD', origin }]);
  expect(state.proxyLogins).toEqual([
    { partition: 'plantdesk-api', username: 'alice', accepted: false },
    { partition: 'plantdesk-api', username: 'alice', accepted: true },
  ]);

  // The session keeps the proxy's credentials: later calls go through without a question.
  const plants = (await app.call('api.call', 'listPlants', { query: { size: 5 } })) as {
    ok: boolean;
  };
  expect(plants.ok).toBe(true);
  expect(await app.eventPayloads('proxyAuth.requested')).toHaveLength(2);
  expect((await app.state()).netRequests).toHaveLength(1);
}, 120_000);
