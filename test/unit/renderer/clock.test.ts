import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appDate,
  appNow,
  followHostClock,
  hostClockOffsetMs,
} from '../../../renderer/src/clock.ts';

/** The renderer's "now" follows the host's clock (an app run at a chosen instant). */

const PAGE_NOW = Date.parse('2026-11-24T22:50:00Z');

describe('the renderer clock', () => {
  afterEach(() => {
    followHostClock(PAGE_NOW, PAGE_NOW, PAGE_NOW);
    vi.useRealTimers();
  });

  it('is the page’s own clock while the host agrees with it within the round trip', () => {
    vi.useFakeTimers({ now: PAGE_NOW });
    followHostClock(PAGE_NOW + 1_500, PAGE_NOW, PAGE_NOW + 40);
    expect(hostClockOffsetMs()).toBe(0);
    expect(appNow()).toBe(PAGE_NOW);
    // A slow answer: the difference is within the time the question took.
    followHostClock(PAGE_NOW + 4_000, PAGE_NOW, PAGE_NOW + 6_000);
    expect(hostClockOffsetMs()).toBe(0);
  });

  it('moves to a host started at another instant, and advances with the page', () => {
    vi.useFakeTimers({ now: PAGE_NOW });
    const hostNow = Date.parse('2026-06-21T10:00:00Z');
    followHostClock(hostNow + 20, PAGE_NOW, PAGE_NOW + 40);
    expect(appNow()).toBe(hostNow);
    vi.advanceTimersByTime(90_000);
    expect(appDate().toISOString()).toBe('2026-06-21T10:01:30.000Z');
  });
});
