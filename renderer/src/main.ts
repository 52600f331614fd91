import { createApp } from 'vue';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { VueQueryPlugin } from '@tanstack/vue-query';
import ConfirmationService from 'primevue/confirmationservice';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import 'primeicons/primeicons.css';
import './styles.css';
import App from './App.vue';
import { useBridge } from './bridge.ts';
import { followHostClock } from './clock.ts';
import { i18n } from './i18n.ts';
import { createAppQueryClient, followEnvironment } from './queryClient.ts';
import { PlantDeskPreset } from './theme.ts';
import { admits, createAppRouter } from './router.ts';
import { useLanguageStore } from './stores/useLanguageStore.ts';
import { useEnvironmentStore } from './stores/useEnvironmentStore.ts';
import { useSessionStore } from './stores/useSessionStore.ts';

// First, before the router reads the address: in browser mode this takes the key out of it.
const bridge = useBridge();

const app = createApp(App);
const pinia = createPinia();
const router = createAppRouter();
app.use(pinia);
app.use(i18n);
app.use(router);
const queryClient = createAppQueryClient();
app.use(VueQueryPlugin, { queryClient });
app.use(PrimeVue, { theme: { preset: PlantDeskPreset, options: { darkModeSelector: 'system' } } });
app.use(ToastService);
app.use(ConfirmationService);
app.directive('tooltip', Tooltip);

const environments = app.runWithContext(() => useEnvironmentStore());
followEnvironment(
  queryClient,
  () => `${environments.activeId} ${environments.active?.baseUrl ?? ''}`,
);

router.beforeEach(async (to) => {
  const session = useSessionStore();
  if (session.state === null) {
    try {
      await session.load();
    } catch {
      // The host is unreachable or refuses us: the sign-in screen shows why.
    }
  }
  // An expired session keeps the user where the password dialog is, with what they typed.
  if (session.expired && !to.meta.public) return false;
  const rememberedEmail = session.state?.rememberedEmail;
  if (!admits(to.meta, { signedIn: session.signedIn, rememberedEmail })) return { name: 'signIn' };
  if (to.name === 'signIn' && session.signedIn) return { name: 'fleet' };
  return true;
});

// The host's clock and the user's language first: "today" on every screen is the host's (an
// app run at a chosen instant), and the first screen is drawn in the right language. An
// unreachable host leaves the system clock and language, and the sign-in screen says why.
const language = app.runWithContext(() => useLanguageStore());
const sentAt = Date.now();
bridge
  .invoke('app.info')
  .then((info) => {
    followHostClock(info.now, sentAt, Date.now());
    language.start(info);
  })
  .catch(() => {})
  .finally(() => app.mount('#app'));
