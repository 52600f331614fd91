import {
  CompiledQuery,
  type AbortableOperationOptions,
  SelectQueryNode,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Tells the other server instances on a PostgreSQL database that this one wrote, so they drop
 * what they cached (server/db/sharedWrites.ts listens). The dialect is wrapped rather than a
 * trigger put on every table: no table can be forgotten, and the readings' bulk inserts pay no
 * per-row cost. A `pg_notify` sent inside a transaction is delivered by PostgreSQL when it
 * commits, and never if it rolls back: so it goes right after a transaction's first write, on
 * the same connection, and right after a write made outside any transaction. Either way it is
 * sent before the write's caller gets its answer, hence before the response that follows.
 */
export const WRITES_CHANNEL = 'plantdesk_writes';

export function isWriteStatement(query: CompiledQuery): boolean {
  // As WriteGeneration counts: everything but a select, raw SQL included.
  return !SelectQueryNode.is(query.query);
}

/** `dialect` whose connections notify `WRITES_CHANNEL` with `instanceId` after writes. */
export function notifyingDialect(dialect: Dialect, instanceId: string): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new NotifyingDriver(dialect.createDriver(), instanceId),
  };
}

class NotifyingDriver implements Driver {
  readonly #inner: Driver;
  readonly #instanceId: string;

  constructor(inner: Driver, instanceId: string) {
    this.#inner = inner;
    this.#instanceId = instanceId;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    return new NotifyingConnection(await this.#inner.acquireConnection(options), this.#instanceId);
  }

  // The inner driver is handed its own connection: it may call private methods on it.
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    await this.#inner.beginTransaction(unwrapped(connection), settings);
    (connection as NotifyingConnection).began();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.commitTransaction(unwrapped(connection));
    } finally {
      (connection as NotifyingConnection).ended();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.rollbackTransaction(unwrapped(connection));
    } finally {
      (connection as NotifyingConnection).ended();
    }
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) =>
    this.#inner.savepoint!(unwrapped(connection), name, compile);

  rollbackToSavepoint: Driver['rollbackToSavepoint'] = async (connection, name, compile) => {
    await this.#inner.rollbackToSavepoint!(unwrapped(connection), name, compile);
    // A notification sent inside the savepoint is gone with it.
    (connection as NotifyingConnection).rolledBackToSavepoint();
  };

  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) =>
    this.#inner.releaseSavepoint!(unwrapped(connection), name, compile);

  releaseConnection(
    connection: DatabaseConnection,
    options?: AbortableOperationOptions,
  ): Promise<void> {
    return this.#inner.releaseConnection(unwrapped(connection), options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.destroy(options);
  }
}

function unwrapped(connection: DatabaseConnection): DatabaseConnection {
  return (connection as NotifyingConnection).inner;
}

class NotifyingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #notification: CompiledQuery;
  #inTransaction = false;
  #notifiedInTransaction = false;

  constructor(inner: DatabaseConnection, instanceId: string) {
    this.inner = inner;
    this.#notification = CompiledQuery.raw('select pg_notify($1, $2)', [
      WRITES_CHANNEL,
      instanceId,
    ]);
  }

  began(): void {
    this.#inTransaction = true;
    this.#notifiedInTransaction = false;
  }

  ended(): void {
    this.#inTransaction = false;
  }

  rolledBackToSavepoint(): void {
    this.#notifiedInTransaction = false;
  }

  // Aborting a query (Kysely's abort signals) works as on the wrapped connection.
  get cancelQuery() {
    return this.inner.cancelQuery?.bind(this.inner);
  }

  get killSession() {
    return this.inner.killSession?.bind(this.inner);
  }

  get collectSessionInfo() {
    return this.inner.collectSessionInfo?.bind(this.inner);
  }

  async executeQuery<R>(
    query: CompiledQuery,
    options?: AbortableOperationOptions,
  ): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query, options);
    if (isWriteStatement(query) && !(this.#inTransaction && this.#notifiedInTransaction)) {
      await this.inner.executeQuery(this.#notification);
      if (this.#inTransaction) this.#notifiedInTransaction = true;
    }
    return result;
  }

  streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize, options);
  }
}
