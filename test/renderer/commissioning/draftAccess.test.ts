// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { admits } from '../../../renderer/src/router.ts';
import { openSignInScreen } from '../support/signInScreen.ts';

/**
 * After a restart without the server, the session is not restored but the environment still
 * remembers its account: the drafts' screens stay reachable (the host keeps drafts per account),
 * nothing else does.
 */
describe('admits', () => {
  const signedOut = { signedIn: false };
  const remembered = { signedIn: false, rememberedEmail: 'installer@example.com' };

  test('a draft screen signed out with a remembered account', () => {
    expect(admits({ drafts: true }, remembered)).toBe(true);
    expect(admits({ drafts: true }, signedOut)).toBe(false);
  });

  test('any other screen still needs the session; public ones never do', () => {
    expect(admits({}, remembered)).toBe(false);
    expect(admits({}, { signedIn: true })).toBe(true);
    expect(admits({ public: true }, signedOut)).toBe(true);
  });
});

describe('the sign-in screen', () => {
  test('leads to the drafts of the remembered account', async () => {
    const app = await openSignInScreen({ rememberedEmail: 'installer@example.com' });
    const link = app.wrapper.find('.drafts-link a');
    expect(link.text()).toBe('Commission as a draft');
    expect(link.attributes('href')).toContain('/drafts');
    expect(app.wrapper.find('.drafts-link').text()).toContain('installer@example.com');
  });

  test('says nothing of drafts without a remembered account', async () => {
    const app = await openSignInScreen();
    expect(app.wrapper.find('.drafts-link').exists()).toBe(false);
  });
});
