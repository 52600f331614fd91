import type { ChannelAnswers } from './mountWithApp.ts';
import { mountWithApp } from './mountWithApp.ts';
import SignInView from '../../../renderer/src/views/SignInView.vue';

/**
 * The sign-in screen signed out on the Local sandbox, settled; with `rememberedEmail` the
 * environment remembers that account (as after a restart without the server).
 */
export async function openSignInScreen(
  options: { rememberedEmail?: string; channels?: ChannelAnswers } = {},
) {
  const { rememberedEmail, channels } = options;
  const app = await mountWithApp(SignInView, {
    user: null,
    route: '/sign-in',
    channels: {
      ...(rememberedEmail && {
        'session.state': { environmentId: 'local', status: 'signedOut', rememberedEmail },
      }),
      ...channels,
    },
  });
  await app.settle();
  return app;
}
