import { createRouter, createWebHashHistory } from 'vue-router';
import SignInView from './views/SignInView.vue';
import PlantsView from './views/PlantsView.vue';

/**
 * Hash history: the page is a file in Electron and a single static file in the web host, so
 * only the part after `#` may change.
 */
export function createAppRouter() {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: { name: 'plants' } },
      { path: '/sign-in', name: 'signIn', component: SignInView },
      { path: '/plants', name: 'plants', component: PlantsView, meta: { requiresSession: true } },
      { path: '/:unknown(.*)*', redirect: { name: 'plants' } },
    ],
  });
}

declare module 'vue-router' {
  interface RouteMeta {
    requiresSession?: boolean;
  }
}
