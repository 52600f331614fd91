import {
  SelectQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Counts the statements that may write, so caches of derived answers can tell whether anything
 * changed since they computed, without every writer having to remember to tell them. The count
 * moves when a write statement runs, which is before its transaction commits; a read that could
 * still see the old data either started before (and sees the count moved when it finishes) or
 * waits for the transaction. Raw SQL counts as a write: it cannot be told apart cheaply.
 */
/** Reads a database's write generation; caches compare it before and after they compute. */
export type Generation = () => number;

export class WriteGeneration implements KyselyPlugin {
  #value = 0;

  get value(): number {
    return this.#value;
  }

  /** Another instance on the same database wrote (server/db/sharedWrites.ts). */
  bump(): void {
    this.#value += 1;
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node)) this.#value += 1;
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
