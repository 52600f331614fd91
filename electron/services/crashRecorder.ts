import type { Logger } from './logger.ts';

/**
 * Records what ends abnormally (an uncaught exception or an unhandled rejection in the main
 * process, a renderer or a child process that dies), so that a crash leaves a trace in the log
 * (redacted as every entry is). A window whose renderer died is told to the user, with where the
 * log is, and loaded again: otherwise it stays a blank page with no way out.
 *
 * Uncaught exceptions are watched through `uncaughtExceptionMonitor`, which records without
 * changing what the process does next (Electron shows its own dialog and the process ends as it
 * would have); an `unhandledRejection` listener keeps Electron's default of going on.
 */

/** Electron's `details` of `render-process-gone` and `child-process-gone` (the fields we read). */
export interface GoneDetails {
  reason: string;
  exitCode: number;
  /** child-process-gone: 'Utility', 'GPU', … */
  type?: string;
  serviceName?: string;
  name?: string;
}

/** The web contents of a window whose renderer died, as far as the recorder needs it. */
export interface GoneContents {
  isDestroyed(): boolean;
  reload(): void;
}

export interface CrashSources {
  process: {
    on(event: 'uncaughtExceptionMonitor', listener: (error: unknown, origin: string) => void): void;
    on(event: 'unhandledRejection', listener: (reason: unknown) => void): void;
  };
  app: {
    on(
      event: 'render-process-gone',
      listener: (event: unknown, contents: GoneContents, details: GoneDetails) => void,
    ): void;
    on(event: 'child-process-gone', listener: (event: unknown, details: GoneDetails) => void): void;
  };
}

export interface CrashRecorderDeps {
  log: Logger;
  /** Tells the user the window's renderer stopped and where the log is; resolves when closed. */
  tellRendererGone(details: GoneDetails, logPath: string): Promise<void>;
  logPath: string;
}

/** Reasons that are not a crash: the app closed it, or it ended on its own. */
const ENDED_NORMALLY = new Set(['clean-exit']);

const describeError = (error: unknown) =>
  error instanceof Error
    ? { error: `${error.name}: ${error.message}`, stack: error.stack ?? '' }
    : { error: String(error) };

export function recordCrashes(sources: CrashSources, deps: CrashRecorderDeps): void {
  const { log } = deps;
  sources.process.on('uncaughtExceptionMonitor', (error, origin) => {
    log.error('Uncaught exception in the main process', { origin, ...describeError(error) });
  });
  sources.process.on('unhandledRejection', (reason) => {
    log.error('Unhandled promise rejection in the main process', describeError(reason));
  });
  sources.app.on('child-process-gone', (_event, details) => {
    if (ENDED_NORMALLY.has(details.reason)) return;
    log.error('A child process ended abnormally', { ...details });
  });
  sources.app.on('render-process-gone', (_event, contents, details) => {
    if (ENDED_NORMALLY.has(details.reason)) return;
    log.error('A window’s renderer ended abnormally', { ...details });
    void deps
      .tellRendererGone(details, deps.logPath)
      .catch((error: unknown) => log.warn('Renderer crash not shown', describeError(error)))
      .then(() => {
        if (contents.isDestroyed()) return;
        log.info('Window loaded again after its renderer ended', { reason: details.reason });
        contents.reload();
      });
  });
}
