import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isProcessAlive, watchParent } from '../../../server/parentWatch.ts';

describe('watchParent (--exit-with-parent)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('on Windows, where the parent id never changes, notices the parent is no longer alive', () => {
    const alive = new Set([4242]);
    const onGone = vi.fn();
    watchParent(onGone, {
      parentPid: 4242,
      currentParentPid: () => 4242,
      isAlive: (pid) => alive.has(pid),
    });
    vi.advanceTimersByTime(3000);
    expect(onGone).not.toHaveBeenCalled();
    alive.delete(4242);
    vi.advanceTimersByTime(1000);
    expect(onGone).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(5000);
    expect(onGone).toHaveBeenCalledOnce();
  });

  it('on POSIX, notices the re-parenting of an orphan even if the old pid lives again', () => {
    let ppid = 4242;
    const onGone = vi.fn();
    watchParent(onGone, { parentPid: 4242, currentParentPid: () => ppid, isAlive: () => true });
    vi.advanceTimersByTime(1000);
    expect(onGone).not.toHaveBeenCalled();
    ppid = 1;
    vi.advanceTimersByTime(1000);
    expect(onGone).toHaveBeenCalledOnce();
  });

  it('stops watching when asked', () => {
    const onGone = vi.fn();
    const stop = watchParent(onGone, { parentPid: 1, isAlive: () => false });
    stop();
    vi.advanceTimersByTime(5000);
    expect(onGone).not.toHaveBeenCalled();
  });
});

describe('isProcessAlive', () => {
  it('is true for this process and false for a pid that cannot exist', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 30)).toBe(false);
  });
});
