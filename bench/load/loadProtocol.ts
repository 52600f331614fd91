/** Messages between the bench process and the load worker. */

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadMeasurement {
  requestsPerSecond: number;
  /** Completed responses. */
  responses: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
}

export type LoadReply = { ok: true; measurement: LoadMeasurement } | { ok: false; error: string };
