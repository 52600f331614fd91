// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import {
  clampRefreshInterval,
  useLiveRefresh,
  type LiveRefresh,
} from '../../../renderer/src/composables/useLiveRefresh.ts';

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** A load that resolves after `ms` (0: at once), counting its calls. */
function fakeLoad(ms = 0, fail?: () => boolean) {
  const load = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        const done = () => (fail?.() ? reject(new Error('server down')) : resolve());
        if (ms === 0) done();
        else setTimeout(done, ms);
      }),
  );
  return load;
}

let scope: ReturnType<typeof effectScope>;
function start(load: () => Promise<void>, options: Parameters<typeof useLiveRefresh>[1]) {
  scope = effectScope();
  return scope.run(() => useLiveRefresh(load, options)) as LiveRefresh;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 2, 29, 10) });
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => visibility,
  });
});

afterEach(() => {
  scope?.stop();
  vi.useRealTimers();
});

describe('useLiveRefresh', () => {
  test('loads at once, then every interval; lastUpdated is the end of the last load', async () => {
    const load = fakeLoad(500);
    const live = start(load, { intervalMs: ref(10_000) });
    expect(load).toHaveBeenCalledTimes(1);
    expect(live.refreshing.value).toBe(true);
    expect(live.lastUpdated.value).toBeNull();
    await vi.advanceTimersByTimeAsync(500);
    expect(live.refreshing.value).toBe(false);
    expect(live.lastUpdated.value).toBe(Date.UTC(2026, 2, 29, 10, 0, 0, 500));
    await vi.advanceTimersByTimeAsync(9_499);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  test('the interval is clamped to 10 s..5 min', async () => {
    expect(clampRefreshInterval(1_000)).toBe(10_000);
    expect(clampRefreshInterval(3_600_000)).toBe(300_000);
    expect(clampRefreshInterval(Number.NaN)).toBe(10_000);
    expect(clampRefreshInterval(60_000)).toBe(60_000);
    const load = fakeLoad();
    const live = start(load, { intervalMs: 1_000 });
    expect(live.intervalMs.value).toBe(10_000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('loads never overlap: a slow load delays the next, refreshNow joins the running one', async () => {
    const load = fakeLoad(25_000);
    const live = start(load, { intervalMs: ref(10_000) });
    const joined = live.refreshNow();
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    await joined;
    // The next one was due 10 s after the start of the last: it starts at once (a 0 ms
    // timer set during a fake-timer tick runs 1 ms later).
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('paused while the window is hidden; back visible it loads at once', async () => {
    const load = fakeLoad();
    const live = start(load, { intervalMs: ref(10_000) });
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    setVisibility('hidden');
    expect(live.paused.value).toBe(true);
    expect(live.hidden.value).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(load).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    expect(live.paused.value).toBe(false);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  test('hidden from the start: no load until the window shows', async () => {
    visibility = 'hidden';
    const load = fakeLoad();
    start(load, { intervalMs: ref(10_000) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).not.toHaveBeenCalled();
    setVisibility('visible');
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('a new interval reschedules from the start of the last load', async () => {
    const interval = ref(60_000);
    const load = fakeLoad();
    start(load, { intervalMs: interval });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(load).toHaveBeenCalledTimes(1);
    interval.value = 10_000;
    await nextTick();
    // 15 s since the last start, more than the new 10 s: due now.
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  test('a failing load is recorded and retried at the next tick', async () => {
    let failing = true;
    const load = fakeLoad(0, () => failing);
    const live = start(load, { intervalMs: ref(10_000) });
    await vi.advanceTimersByTimeAsync(0);
    expect((live.error.value as Error).message).toBe('server down');
    expect(live.lastUpdated.value).toBeNull();
    failing = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(2);
    expect(live.error.value).toBeNull();
    expect(live.lastUpdated.value).toBe(Date.UTC(2026, 2, 29, 10, 0, 10));
  });

  test('enabled false pauses; not immediate waits one interval; the scope end stops it', async () => {
    const enabled = ref(true);
    const load = fakeLoad();
    const live = start(load, { intervalMs: ref(10_000), immediate: false, enabled });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(1);
    enabled.value = false;
    expect(live.paused.value).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(1);
    enabled.value = true;
    expect(load).toHaveBeenCalledTimes(2);
    scope.stop();
    setVisibility('hidden');
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(2);
    await live.refreshNow();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
