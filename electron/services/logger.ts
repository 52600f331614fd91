/**
 * What services log through. The desktop app and the web host give them a rotating file log;
 * tests give them `silentLogger` or a recording one. Fields must never carry a token or password:
 * the file log redacts known secret keys as a second line of defence, not the first.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLogger: Logger = {
  info() {},
  warn() {},
  error() {},
};

/** Only warnings and errors: for a service whose info lines are per-request traffic. */
export function problemsOnly(log: Logger): Logger {
  return {
    info() {},
    warn: (message, fields) => log.warn(message, fields),
    error: (message, fields) => log.error(message, fields),
  };
}
