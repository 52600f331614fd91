import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useRouter } from 'vue-router';
import { useBridge } from '../bridge.ts';
import type { SessionState, SignInInput } from '../../../electron/ipc/contract.ts';

/** Why the user is back on the sign-in screen without having signed out. */
export interface SessionNotice {
  email: string;
  message: string;
}

/**
 * Who is signed in, to which environment. The host owns the tokens; this store only mirrors the
 * `SessionState` it answers and announces.
 */
export const useSessionStore = defineStore('session', () => {
  const bridge = useBridge();
  // Pinia runs setup stores inside app.runWithContext, so the router can be injected here.
  const router = useRouter();
  const state = ref<SessionState | null>(null);
  const notice = ref<SessionNotice | null>(null);

  const signedIn = computed(() => state.value?.status === 'signedIn');
  const user = computed(() => state.value?.user);

  function apply(next: SessionState): void {
    state.value = next;
    if (next.status === 'signedIn') notice.value = null;
  }

  bridge.on('session.changed', apply);
  // The refresh token was refused: back to sign-in with the email filled in (issue 5 turns this
  // into a dialog over the current screen, keeping unsaved input).
  bridge.on('session.expired', (expired) => {
    notice.value = { email: expired.email, message: expired.message };
    if (state.value) state.value = { ...state.value, status: 'signedOut', user: undefined };
    void router.push({ name: 'signIn' });
  });

  async function load(): Promise<void> {
    apply(await bridge.invoke('session.state'));
  }

  async function signIn(input: SignInInput): Promise<void> {
    apply(await bridge.invoke('session.signIn', input));
  }

  async function signOut(): Promise<void> {
    notice.value = null;
    apply(await bridge.invoke('session.signOut'));
  }

  return { state, notice, signedIn, user, apply, load, signIn, signOut };
});
