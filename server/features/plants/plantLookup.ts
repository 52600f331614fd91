import { reusableQuery } from '../../db/fastQuery.ts';
import type { Db } from '../../db/database.ts';
import type { PlantRow } from '../../db/tables.ts';

const plantByUuid = reusableQuery((db, plantUuid: string) =>
  db.selectFrom('plants').selectAll().where('plant_uuid', '=', plantUuid),
);

/**
 * Plants by uuid, remembered between requests. Every plant-scoped route starts with this lookup
 * (ownership), so it is the hottest query of the API. Correct for one server process owning its
 * database, which is how both the Local sandbox and the standalone server run: every write to a
 * plant goes through `forget`. A version stamp keeps a read that raced a write from caching the
 * row it read before that write.
 */
export class PlantLookup {
  readonly #db: Db;
  readonly #rows = new Map<string, Readonly<PlantRow>>();
  readonly #capacity: number;
  #version = 0;

  constructor(db: Db, capacity = 10_000) {
    this.#db = db;
    this.#capacity = capacity;
  }

  async find(plantUuid: string): Promise<Readonly<PlantRow> | undefined> {
    const remembered = this.#rows.get(plantUuid);
    if (remembered) return remembered;
    const version = this.#version;
    const [row] = await plantByUuid(this.#db, plantUuid);
    if (row && version === this.#version) {
      if (this.#rows.size >= this.#capacity) this.#rows.clear();
      this.#rows.set(plantUuid, Object.freeze(row));
    }
    return row;
  }

  /** After a plant was changed or deleted (call it once the change is committed). */
  forget(plantUuid: string): void {
    this.#version += 1;
    this.#rows.delete(plantUuid);
  }
}
