import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZE,
  initialWindowBounds,
  loadWindowState,
  MIN_SIZE,
  saveWindowState,
  showWhenReady,
  WINDOW_STATE_FILE,
  type Rectangle,
  type WindowState,
} from '../../../electron/main/windowState.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-window-'));
  file = path.join(dir, WINDOW_STATE_FILE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const saved: WindowState = {
  bounds: { x: 100, y: 80, width: 1200, height: 760 },
  maximized: false,
};

describe('window state file', () => {
  it('round-trips what was saved, as JSON in the data folder', () => {
    saveWindowState(file, saved);
    expect(loadWindowState(file)).toEqual(saved);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(saved);
    // Written through a temporary file that is renamed away.
    expect(readdirSync(dir)).toEqual([WINDOW_STATE_FILE]);
  });

  it('creates the data folder if needed', () => {
    const nested = path.join(dir, 'a', 'b', WINDOW_STATE_FILE);
    saveWindowState(nested, { ...saved, maximized: true });
    expect(loadWindowState(nested)).toEqual({ ...saved, maximized: true });
  });

  it.each([
    ['missing', undefined],
    ['not JSON', '{"bounds": '],
    ['the wrong shape', '{"bounds": {"x": 1}, "maximized": false}'],
    ['fractional numbers', '{"bounds":{"x":1.5,"y":0,"width":800,"height":600},"maximized":false}'],
    ['a zero size', '{"bounds":{"x":0,"y":0,"width":0,"height":600},"maximized":false}'],
    ['null', 'null'],
  ])('reads nothing from a file that is %s', (_name, content) => {
    if (content !== undefined) writeFileSync(file, content);
    expect(loadWindowState(file)).toBeUndefined();
  });
});

// The primary display first, as main passes them.
const laptop: Rectangle = { x: 0, y: 25, width: 1440, height: 875 };
const rightMonitor: Rectangle = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('initialWindowBounds', () => {
  it('opens centered at the default size without a saved state', () => {
    expect(initialWindowBounds(undefined, [laptop])).toEqual({
      ...DEFAULT_SIZE,
      maximized: false,
    });
  });

  it('fits the default size to a small screen', () => {
    const small: Rectangle = { x: 0, y: 0, width: 1024, height: 700 };
    expect(initialWindowBounds(undefined, [small])).toEqual({
      width: 1024,
      height: 700,
      maximized: false,
    });
  });

  it('restores a window that is fully visible exactly', () => {
    expect(initialWindowBounds(saved, [laptop])).toEqual({ ...saved.bounds, maximized: false });
  });

  it('restores the maximized flag', () => {
    expect(initialWindowBounds({ ...saved, maximized: true }, [laptop]).maximized).toBe(true);
  });

  it('restores a window on the second display', () => {
    const there = { x: 2000, y: 200, width: 1600, height: 1000 };
    expect(
      initialWindowBounds({ bounds: there, maximized: false }, [laptop, rightMonitor]),
    ).toEqual({ ...there, maximized: false });
  });

  it('moves a window hanging off the edge fully inside the display it mostly covered', () => {
    const hanging = { x: 1000, y: -50, width: 1200, height: 700 };
    expect(initialWindowBounds({ bounds: hanging, maximized: false }, [laptop])).toEqual({
      x: 1440 - 1200,
      y: 25,
      width: 1200,
      height: 700,
      maximized: false,
    });
  });

  it('centers a window on the primary display when its display is gone', () => {
    const onUnplugged = { x: 2000, y: 200, width: 1600, height: 1000 };
    expect(initialWindowBounds({ bounds: onUnplugged, maximized: false }, [laptop])).toEqual({
      width: 1440,
      height: 875,
      maximized: false,
    });
  });

  it('shrinks a window larger than its display, but not below the minimum size', () => {
    const huge = { x: 0, y: 25, width: 5000, height: 3000 };
    expect(initialWindowBounds({ bounds: huge, maximized: false }, [laptop])).toEqual({
      ...laptop,
      maximized: false,
    });
    const tiny = { x: 10, y: 30, width: 200, height: 100 };
    expect(initialWindowBounds({ bounds: tiny, maximized: false }, [laptop])).toEqual({
      x: 10,
      y: 30,
      ...MIN_SIZE,
      maximized: false,
    });
  });

  it('always lands fully on one display', () => {
    const rectangle = fc.record({
      x: fc.integer({ min: -5000, max: 5000 }),
      y: fc.integer({ min: -5000, max: 5000 }),
      width: fc.integer({ min: 1, max: 6000 }),
      height: fc.integer({ min: 1, max: 4000 }),
    });
    const display = fc.record({
      x: fc.integer({ min: -4000, max: 4000 }),
      y: fc.integer({ min: -4000, max: 4000 }),
      width: fc.integer({ min: 640, max: 5120 }),
      height: fc.integer({ min: 480, max: 2880 }),
    });
    fc.assert(
      fc.property(rectangle, fc.array(display, { minLength: 1, maxLength: 3 }), (bounds, areas) => {
        const result = initialWindowBounds({ bounds, maximized: false }, areas);
        const inside = (area: Rectangle) =>
          result.width <= area.width &&
          result.height <= area.height &&
          (result.x === undefined ||
            (result.x >= area.x &&
              result.y! >= area.y &&
              result.x + result.width <= area.x + area.width &&
              result.y! + result.height <= area.y + area.height));
        expect(areas.some(inside)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('showWhenReady', () => {
  function fakeWindow() {
    const calls: string[] = [];
    const ready: Array<() => void> = [];
    return {
      calls,
      paint: () => ready.splice(0).forEach((listener) => listener()),
      window: {
        once: (event: 'ready-to-show', listener: () => void) => {
          calls.push(`once ${event}`);
          ready.push(listener);
        },
        maximize: () => void calls.push('maximize'),
        show: () => void calls.push('show'),
      },
    };
  }

  it('maximizes and shows only once the page has painted, so no white window flashes', () => {
    const { calls, paint, window } = fakeWindow();
    showWhenReady(window, true);
    expect(calls).toEqual(['once ready-to-show']);
    paint();
    expect(calls).toEqual(['once ready-to-show', 'maximize', 'show']);
  });

  it('shows a window that was not maximized as it is', () => {
    const { calls, paint, window } = fakeWindow();
    showWhenReady(window, false);
    paint();
    expect(calls).toEqual(['once ready-to-show', 'show']);
  });
});
