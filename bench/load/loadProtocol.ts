/** Messages between the bench process and the load worker. */

export interface LoadRequest {
  /** The URL every request asks; with `paths`, only its origin counts. */
  url: string;
  /**
   * Path and query of each request, in turn, whatever its connection: with more paths than
   * requests in flight no two concurrent requests ask the same thing, and a path comes back only
   * after all the others. A single path is a cycle of one, built per request like a longer cycle,
   * so every measurement of a comparison over cycles sees the same client.
   */
  paths?: readonly string[];
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
