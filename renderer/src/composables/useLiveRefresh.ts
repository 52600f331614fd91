import {
  computed,
  getCurrentScope,
  onScopeDispose,
  readonly,
  ref,
  toValue,
  watch,
  type ComputedRef,
  type MaybeRefOrGetter,
  type Ref,
} from 'vue';
import { appNow } from '../clock.ts';
import { clampRefreshInterval, MAX_REFRESH_MS, MIN_REFRESH_MS } from './refreshInterval.ts';

export { clampRefreshInterval, MAX_REFRESH_MS, MIN_REFRESH_MS };

export interface LiveRefreshOptions {
  /** Time between the start of one load and the next; clamped to 10 s..5 min. */
  intervalMs: MaybeRefOrGetter<number>;
  /** Load at once (default true); else the first load is one interval away. */
  immediate?: boolean;
  /** False pauses the timer (a "pause live updates" toggle); default true. */
  enabled?: MaybeRefOrGetter<boolean>;
}

export interface LiveRefresh {
  /** When the last load that succeeded finished (epoch ms), null before the first one. */
  lastUpdated: Readonly<Ref<number | null>>;
  /** A load is running. */
  refreshing: Readonly<Ref<boolean>>;
  /** No timer runs: the window is hidden or `enabled` is false. */
  paused: Readonly<Ref<boolean>>;
  /** The window is hidden (`document.visibilityState === 'hidden'`). */
  hidden: Readonly<Ref<boolean>>;
  /** What the last load threw, null after a load that succeeded. */
  error: Readonly<Ref<unknown>>;
  /** The interval in force (clamped). */
  intervalMs: ComputedRef<number>;
  /** Loads now (or joins the load already running: loads never overlap). */
  refreshNow(): Promise<void>;
  /** Stops the timer and the listeners for good (done by itself when the scope ends). */
  stop(): void;
}

/**
 * Calls `load` every `intervalMs` while the window is visible, never two at once.
 *
 * - Hidden window (`visibilitychange`): the timer stops; back to visible, it loads at once and
 *   restarts.
 * - A failing `load` is recorded in `error` and does not stop the timer (each card shows its
 *   own error; the next tick retries).
 * - Changing the interval reschedules the next load from the start of the last one.
 *
 *   const live = useLiveRefresh(loadAll, { intervalMs: interval });
 *   live.lastUpdated.value // → 1711700000000
 */
export function useLiveRefresh(
  load: () => Promise<void>,
  options: LiveRefreshOptions,
): LiveRefresh {
  const lastUpdated = ref<number | null>(null);
  const refreshing = ref(false);
  const error = ref<unknown>(null);
  const hidden = ref(typeof document !== 'undefined' && document.visibilityState === 'hidden');
  const intervalMs = computed(() => clampRefreshInterval(toValue(options.intervalMs)));
  const enabled = computed(() => toValue(options.enabled ?? true));
  const paused = computed(() => hidden.value || !enabled.value);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let lastStarted: number | null = null;
  let stopped = false;

  function clearTimer() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }

  function schedule() {
    clearTimer();
    if (stopped || paused.value || running) return;
    const due = lastStarted === null ? 0 : lastStarted + intervalMs.value - Date.now();
    timer = setTimeout(
      () => {
        timer = undefined;
        void refreshNow();
      },
      Math.max(0, due),
    );
  }

  function refreshNow(): Promise<void> {
    if (running) return running;
    if (stopped) return Promise.resolve();
    clearTimer();
    refreshing.value = true;
    lastStarted = Date.now();
    running = (async () => {
      try {
        await load();
        lastUpdated.value = appNow();
        error.value = null;
      } catch (caught) {
        error.value = caught;
      } finally {
        refreshing.value = false;
        running = null;
        schedule();
      }
    })();
    return running;
  }

  const onVisibility = () => {
    const nowHidden = document.visibilityState === 'hidden';
    if (nowHidden === hidden.value) return;
    hidden.value = nowHidden;
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);

  const stopWatch = watch(
    paused,
    (isPaused, wasPaused) => {
      if (isPaused) clearTimer();
      // Back from hidden (or re-enabled): the data may be old, load at once.
      else if (wasPaused) void refreshNow();
    },
    { flush: 'sync' },
  );
  const stopIntervalWatch = watch(intervalMs, () => schedule(), { flush: 'sync' });

  function stop() {
    stopped = true;
    clearTimer();
    stopWatch();
    stopIntervalWatch();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', onVisibility);
    }
  }
  if (getCurrentScope()) onScopeDispose(stop);

  if (options.immediate ?? true) {
    if (!paused.value) void refreshNow();
  } else {
    lastStarted = Date.now();
    schedule();
  }

  return {
    lastUpdated: readonly(lastUpdated),
    refreshing: readonly(refreshing),
    paused,
    hidden: readonly(hidden),
    error: readonly(error) as Readonly<Ref<unknown>>,
    intervalMs,
    refreshNow,
    stop,
  };
}
