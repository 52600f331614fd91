import { reusableQuery } from '../../db/fastQuery.ts';
import type { Db } from '../../db/database.ts';
import type { PlantRow } from '../../db/tables.ts';
import type { Generation } from '../../db/writeGeneration.ts';

const plantByUuid = reusableQuery((db, plantUuid: string) =>
  db.selectFrom('plants').selectAll().where('plant_uuid', '=', plantUuid),
);

/**
 * Plants by uuid, remembered between requests. Every plant-scoped route starts with this lookup
 * (ownership), so it is the hottest query of the API. What is remembered holds until the database
 * is next written to, whoever writes: the write generation moves with every write statement, so
 * no writer has to remember to say so, and a read that raced a write is not remembered.
 */
export class PlantLookup {
  readonly #db: Db;
  readonly #generation: Generation;
  readonly #rows = new Map<string, Readonly<PlantRow>>();
  readonly #capacity: number;
  #rowsGeneration = -1;

  constructor(db: Db, generation: Generation, capacity = 10_000) {
    this.#db = db;
    this.#generation = generation;
    this.#capacity = capacity;
  }

  async find(plantUuid: string): Promise<Readonly<PlantRow> | undefined> {
    const generation = this.#generation();
    if (generation !== this.#rowsGeneration) {
      this.#rows.clear();
      this.#rowsGeneration = generation;
    }
    const remembered = this.#rows.get(plantUuid);
    if (remembered) return remembered;
    const [row] = await plantByUuid(this.#db, plantUuid);
    if (row && this.#generation() === generation && this.#rowsGeneration === generation) {
      if (this.#rows.size >= this.#capacity) this.#rows.clear();
      this.#rows.set(plantUuid, Object.freeze(row));
    }
    return row;
  }
}
