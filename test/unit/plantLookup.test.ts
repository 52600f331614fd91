import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSqliteDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { PlantLookup } from '../../server/features/plants/plantLookup.ts';
import { insertPlant } from '../../server/features/plants/plantStore.ts';
import { createOrganization } from '../../server/features/auth/userStore.ts';

let opened: OpenedDatabase;
let plantUuid: string;
const NOW = '2026-11-21T10:00:00.000Z';

beforeEach(async () => {
  opened = await openSqliteDatabase(':memory:');
  const organization = await createOrganization(opened.db, 'Org', NOW);
  const plant = await insertPlant(
    opened.db,
    organization,
    { name: 'First', location: { latitude: 1, longitude: 2, timezone: 'UTC' } },
    NOW,
  );
  plantUuid = plant.plantUuid;
});

afterEach(async () => {
  await opened.close();
});

const rename = (name: string) =>
  opened.db.updateTable('plants').set({ name }).where('plant_uuid', '=', plantUuid).execute();

describe('PlantLookup', () => {
  test('remembers a plant until the write generation moves', async () => {
    let generation = 0;
    const lookup = new PlantLookup(opened.db, () => generation);
    expect((await lookup.find(plantUuid))?.name).toBe('First');
    await rename('Second');
    expect((await lookup.find(plantUuid))?.name).toBe('First');
    generation += 1;
    expect((await lookup.find(plantUuid))?.name).toBe('Second');
  });

  test("the database's own generation moves with every write", async () => {
    const lookup = new PlantLookup(opened.db, () => opened.writes.value);
    expect((await lookup.find(plantUuid))?.name).toBe('First');
    await rename('Second');
    expect((await lookup.find(plantUuid))?.name).toBe('Second');
  });

  test('a missing plant is not remembered', async () => {
    const lookup = new PlantLookup(opened.db, () => opened.writes.value);
    expect(await lookup.find('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  test('a read that raced a change does not remember what it read', async () => {
    const lookup = new PlantLookup(opened.db, () => opened.writes.value);
    const racing = lookup.find(plantUuid); // reads 'First' now, would remember it after an await
    await rename('Second');
    expect((await racing)?.name).toBe('First');
    expect((await lookup.find(plantUuid))?.name).toBe('Second');
  });

  test('rows are frozen: a handler cannot change what others will read', async () => {
    const lookup = new PlantLookup(opened.db, () => opened.writes.value);
    const row = await lookup.find(plantUuid);
    expect(Object.isFrozen(row)).toBe(true);
  });
});
