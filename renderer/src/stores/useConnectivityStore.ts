import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { ChannelName, DraftSendResult } from '../../../electron/ipc/contract.ts';
import { onCallSettled, type CallSettlement } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { useEnvironmentStore } from './useEnvironmentStore.ts';
import { useSessionStore } from './useSessionStore.ts';

/** Channels whose success proves the server answered (the others stay inside the host). */
const SERVER_CHANNELS: ReadonlySet<ChannelName> = new Set([
  'api.call',
  'session.signIn',
  'session.refreshUser',
]);

export type RetryCallback = () => unknown;

/** A successful call that proves the server answered. */
function reachedServer(settlement: CallSettlement): boolean {
  if (SERVER_CHANNELS.has(settlement.channel)) return true;
  // A draft's send reached the server unless it was interrupted (refusals are answers too).
  if (settlement.channel === 'drafts.send') {
    return (settlement.value as DraftSendResult | undefined)?.outcome !== 'interrupted';
  }
  return false;
}

/**
 * Whether the server of the active environment can be reached, as the calls tell: a call that
 * fails because the server is unreachable (kind `network`, or `proxy`: the proxy between refused)
 * raises the offline banner, any call
 * the server answered lowers it, and so does switching environment. Retry re-runs what the current screen registered (its load), or reads
 * the user again. The Local sandbox's own state counts too: stopped or failed, it cannot be
 * reached; running again, the banner goes (a call that still fails raises it again).
 */
export const useConnectivityStore = defineStore('connectivity', () => {
  const offline = ref(false);
  /** The failure's own words, shown under the banner's headline. */
  const failure = ref<string | null>(null);
  /** The Local sandbox down: the app's own words, said in the language of the moment shown. */
  const sandboxDown = ref<'failed' | 'stopped' | null>(null);
  const reason = computed(() => {
    if (sandboxDown.value === 'failed') return translate('shell.offline.sandboxFailed');
    if (sandboxDown.value === 'stopped') return translate('shell.offline.sandboxStopped');
    return failure.value;
  });
  function setReason(text: string | null, sandbox: 'failed' | 'stopped' | null = null): void {
    failure.value = text;
    sandboxDown.value = sandbox;
  }
  const retrying = ref(false);
  const retries: RetryCallback[] = [];

  onCallSettled((settlement) => {
    if (settlement.ok) {
      if (!reachedServer(settlement)) return;
      offline.value = false;
      setReason(null);
    } else if (settlement.error?.kind === 'network' || settlement.error?.kind === 'proxy') {
      // A proxy's refusal also keeps the server out of reach; its words say what to check.
      offline.value = true;
      setReason(settlement.error.message);
    }
  });

  // Another environment is another server: what was true of the last one no longer is.
  watch(
    () => useEnvironmentStore().activeId,
    () => {
      offline.value = false;
      setReason(null);
    },
  );
  watch(
    () => {
      const environments = useEnvironmentStore();
      return environments.loaded && environments.activeIsLocal
        ? environments.localSandbox.status
        : null;
    },
    (status) => {
      if (status === 'running') {
        offline.value = false;
        setReason(null);
      } else if (status === 'stopped' || status === 'failed') {
        offline.value = true;
        setReason(null, status);
      }
    },
  );

  /**
   * What Retry re-runs while this screen is shown (the newest registration wins); call the
   * answer to unregister, e.g. in `onBeforeUnmount`.
   */
  function registerRetry(callback: RetryCallback): () => void {
    retries.push(callback);
    return () => {
      const index = retries.lastIndexOf(callback);
      if (index >= 0) retries.splice(index, 1);
    };
  }

  /** Re-runs the registered callback or reads the user again; a success hides the banner. */
  async function retry(): Promise<void> {
    retrying.value = true;
    try {
      const callback = retries.at(-1);
      if (callback) await callback();
      else await useSessionStore().refreshUser();
    } catch {
      // Still unreachable: the failed call has kept the banner up with its reason.
    } finally {
      retrying.value = false;
    }
  }

  return { offline, reason, retrying, registerRetry, retry };
});
