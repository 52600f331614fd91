import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useBridge } from '../bridge.ts';
import type { CurrentUser } from '../../../api/schemas/auth.ts';
import type { Events, SessionState, SignInInput } from '../../../electron/ipc/contract.ts';

/** Why the user is on the sign-in screen without having signed out. */
export interface SessionNotice {
  email: string;
  message: string;
}

export type SessionExpiry = Events['session.expired'];

/**
 * Who is signed in, to which environment. The host owns the tokens; this store only mirrors the
 * `SessionState` it answers and announces.
 *
 * An expired session (the host announces `session.expired`) does not leave the current screen:
 * `expired` is set, the shell shows the password dialog over it, and whatever was being typed
 * stays. Until then `user` keeps the last user, so the screen's permissions do not flicker.
 */
export const useSessionStore = defineStore('session', () => {
  const bridge = useBridge();
  const state = ref<SessionState | null>(null);
  const notice = ref<SessionNotice | null>(null);
  const expired = ref<SessionExpiry | null>(null);
  const lastUser = ref<CurrentUser | undefined>();

  const signedIn = computed(() => state.value?.status === 'signedIn');
  const user = computed(() => state.value?.user ?? (expired.value ? lastUser.value : undefined));

  function apply(next: SessionState): void {
    state.value = next;
    if (next.status === 'signedIn') {
      notice.value = null;
      expired.value = null;
      lastUser.value = next.user;
    } else if (expired.value && expired.value.environmentId !== next.environmentId) {
      // Another environment now: the dialog about the old one no longer applies.
      expired.value = null;
    }
  }

  bridge.on('session.changed', apply);
  bridge.on('session.expired', (expiry) => {
    expired.value = expiry;
    if (state.value?.status === 'signedIn') {
      state.value = { ...state.value, status: 'signedOut', user: undefined };
    }
  });

  async function load(): Promise<void> {
    apply(await bridge.invoke('session.state'));
  }

  async function signIn(input: SignInInput): Promise<void> {
    apply(await bridge.invoke('session.signIn', input));
  }

  async function signOut(): Promise<void> {
    notice.value = null;
    expired.value = null;
    lastUser.value = undefined;
    apply(await bridge.invoke('session.signOut'));
  }

  /** Reads `/auth/me` again: permissions may have changed, or the server is back. */
  async function refreshUser(): Promise<void> {
    apply(await bridge.invoke('session.refreshUser'));
  }

  /**
   * The user gave up on the expired session: the sign-in screen takes over, with the email and
   * the reason (the caller navigates there).
   */
  function abandonExpired(): void {
    if (expired.value) {
      notice.value = { email: expired.value.email, message: expired.value.message };
    }
    expired.value = null;
    lastUser.value = undefined;
  }

  return {
    state,
    notice,
    expired,
    signedIn,
    user,
    apply,
    load,
    signIn,
    signOut,
    refreshUser,
    abandonExpired,
  };
});
