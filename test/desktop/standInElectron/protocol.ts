import type { UtilityProcessRecord } from './utilityProcess.ts';

/** What the harness (harness.ts) and the stand-in main process (mainProcess.ts) say. */

export type Command =
  | { op: 'state' }
  | { op: 'fetch'; urls: string[]; method?: string }
  /** As the page calls it: `window.plantdesk[channel](...args)`. */
  | { op: 'call'; channel: string; args: unknown[] }
  /** As the page of the first live window whose address contains `urlIncludes` calls it. */
  | { op: 'callFrom'; urlIncludes: string; channel: string; args: unknown[] }
  /** The channel's handler called by another sender than the window's main frame. */
  | { op: 'callAs'; sender: 'foreignContents' | 'subframe'; channel: string; args: unknown[] }
  | { op: 'navigate'; url: string }
  | { op: 'openWindow'; url: string }
  | { op: 'readLog' }
  /** What the main process sent the page on one event channel (`event:<name>`), in order. */
  | { op: 'eventPayloads'; channel: string }
  | { op: 'quit' }
  /** The user closes the window (its close button). */
  | { op: 'closeWindow' };

export interface WindowState {
  webPreferences: Record<string, unknown>;
  options: Record<string, unknown>;
  shownBeforeReady: boolean;
  visible: boolean;
  maximized: boolean;
  destroyed: boolean;
  url: string;
  /** The keys contextBridge put on the page's window. */
  exposed: string[];
  /** What the preload required. */
  preloadRequired: string[];
  /** The channels of webContents.send, in order. */
  eventsSent: string[];
}

export interface PrintedPage {
  url: string;
  options: unknown;
}

export type UtilityProcessState = UtilityProcessRecord & { running: boolean };

export interface StandInState {
  events: string[];
  ready: boolean;
  /** Uncaught exceptions and unhandled rejections in the main process. */
  errors: string[];
  sandboxEnabled: boolean;
  /** The app's API calls through `session.fromPartition(…).fetch` (Chromium's stack). */
  sessionFetches: Array<{ partition: string; cache: boolean | undefined; origin: string }>;
  /** The app's `net.request`s (a proxy sign-in). */
  netRequests: Array<{ partition: string; method: string; origin: string }>;
  /** The app's answers to the proxy's 'login' events, and whether the proxy took each. */
  proxyLogins: Array<{ partition: string; username: string; accepted: boolean }>;
  schemeRegistrations: Array<{ schemes: unknown[]; afterReady: boolean }>;
  protocolSchemes: string[];
  ipcChannels: string[];
  windows: WindowState[];
  /** Each webContents.printToPDF, in order. */
  printed: PrintedPage[];
  utilityProcesses: UtilityProcessState[];
  userData: string;
  logs: string;
}

export interface FetchResult {
  url: string;
  status: number;
  headers: Record<string, string>;
  sha256: string;
  length: number;
}

export interface ExitReport {
  code: number;
  events: string[];
  errors: string[];
  /** As they were when the app ended, before the browser process took them down. */
  utilityProcesses: UtilityProcessState[];
}
