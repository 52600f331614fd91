import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonFileAtomic } from '../services/dataFolder.ts';

/**
 * Where the main window was, remembered across launches in `window-state.json` in the data
 * folder. Pure logic plus two small file functions; main wires them to the BrowserWindow.
 */

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 800 };
export const MIN_SIZE = { width: 800, height: 560 };

const Bounds = z.strictObject({
  x: z.int(),
  y: z.int(),
  width: z.int().min(1).max(100_000),
  height: z.int().min(1).max(100_000),
});
const WindowStateSchema = z.object({
  bounds: Bounds,
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

/** What to create the window with: no x/y means "let Electron center it". */
export interface InitialWindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** A saved state, or undefined if the file is missing, unreadable or not what we wrote. */
export function loadWindowState(file: string): WindowState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written durably, as every settings file is, so a crash or a power cut leaves the old state.
 * Synchronous on purpose: it runs as the window closes, when the app may be quitting.
 */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeJsonFileAtomic(file, state);
}

function overlapArea(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

function fitSize(
  size: { width: number; height: number },
  area: Rectangle,
): { width: number; height: number } {
  return {
    width: clamp(size.width, Math.min(MIN_SIZE.width, area.width), area.width),
    height: clamp(size.height, Math.min(MIN_SIZE.height, area.height), area.height),
  };
}

/**
 * Where to open the window given the displays' work areas now (the first is the primary):
 * on the display the saved window overlapped most, shrunk to fit and moved fully inside its
 * work area. A window saved on a display that is gone, or with no saved state, opens centered
 * on the primary display at the default size (fitted to it).
 */
export function initialWindowBounds(
  saved: WindowState | undefined,
  workAreas: readonly Rectangle[],
): InitialWindowBounds {
  const primary = workAreas[0];
  if (primary === undefined) return { ...DEFAULT_SIZE, maximized: saved?.maximized ?? false };
  if (saved === undefined) return { ...fitSize(DEFAULT_SIZE, primary), maximized: false };

  let best: Rectangle | undefined;
  let bestArea = 0;
  for (const area of workAreas) {
    const overlap = overlapArea(saved.bounds, area);
    if (overlap > bestArea) {
      best = area;
      bestArea = overlap;
    }
  }
  if (best === undefined) {
    return { ...fitSize(saved.bounds, primary), maximized: saved.maximized };
  }
  const size = fitSize(saved.bounds, best);
  return {
    x: clamp(saved.bounds.x, best.x, best.x + best.width - size.width),
    y: clamp(saved.bounds.y, best.y, best.y + best.height - size.height),
    ...size,
    maximized: saved.maximized,
  };
}

/** The part of a BrowserWindow that showing it needs. */
export interface ShowableWindow {
  once(event: 'ready-to-show', listener: () => void): unknown;
  maximize(): void;
  show(): void;
}

/**
 * Shows the window once its page has painted, maximized first if it was. Not maximized at
 * creation: maximize() shows a hidden window on Windows and Linux, white until the page paints.
 */
export function showWhenReady(window: ShowableWindow, maximized: boolean): void {
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
}
