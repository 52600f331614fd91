import type { LoadRequest } from '../load/loadProtocol.ts';

/**
 * A load over several paths of one server: each request takes the next path, in turn, whatever
 * its connection, so with more paths than requests in flight no two concurrent requests ask the
 * same thing, and a path comes back only after all the others.
 */
export interface CyclingLoadRequest extends Omit<LoadRequest, 'url'> {
  /** The server's origin, e.g. `http://127.0.0.1:1234`. */
  origin: string;
  /** Path and query of each request, in turn. */
  paths: readonly string[];
}
