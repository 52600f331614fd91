import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../api/index.ts';
import { migrationProvider } from '../../server/db/migrations/index.ts';
import { NodeSqliteDatabase } from '../../server/db/nodeSqlite.ts';
import { postgresKysely, postgresPool } from '../../server/db/postgres.ts';
import { createPlant, expectStatus } from '../support/entities.ts';
import { createTestDatabase, testEngine } from '../support/testDatabases.ts';
import { TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * The total of an unsearched `GET /plants` is the organization's count kept by triggers
 * (migration 0020): it must follow every plant added and removed, per organization, on both
 * engines, and start from the plants a database already had.
 */

describe('the unsearched total follows the plants', () => {
  let server: TestServer;
  const tokens = {} as Record<DemoRole, string>;

  beforeAll(async () => {
    server = await TestServer.start();
    for (const role of ['admin', 'outsider'] as const) tokens[role] = await server.tokenFor(role);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function listed(role: DemoRole, query: Record<string, string> = {}) {
    const response = await server.request('GET', '/plants', { token: tokens[role], query });
    return routes.listPlants.response.parse(expectStatus(response, 200, 'list plants'));
  }
  /** Every plant of the caller's organization, counted by reading them all. */
  async function counted(role: DemoRole): Promise<number> {
    let total = 0;
    for (let page = 0; ; page++) {
      const { content } = await listed(role, { size: '100', page: String(page) });
      total += content.length;
      if (content.length < 100) return total;
    }
  }

  test('after creates and deletes, in its own organization only', async () => {
    const before = (await listed('admin')).page.totalElements;
    const outsiders = (await listed('outsider')).page.totalElements;
    expect(before).toBe(await counted('admin'));

    const created = [];
    for (let index = 0; index < 3; index++) created.push(await createPlant(server, tokens.admin));
    expect((await listed('admin')).page.totalElements).toBe(before + 3);

    const removed = await server.request('DELETE', `/plants/${created[1].plantUuid}`, {
      token: tokens.admin,
    });
    expectStatus(removed, 204, 'delete plant');
    const after = await listed('admin', { size: '2', sort: 'createdAt,desc' });
    expect(after.page).toEqual({
      number: 0,
      size: 2,
      totalElements: before + 2,
      totalPages: Math.ceil((before + 2) / 2),
    });
    expect(after.content.map((plant) => plant.plantUuid)).toEqual([
      created[2].plantUuid,
      created[0].plantUuid,
    ]);
    expect(before + 2).toBe(await counted('admin'));
    expect((await listed('outsider')).page.totalElements).toBe(outsiders);
  });

  test('on a page past the end, which has no plant to carry it', async () => {
    const total = await counted('admin');
    const beyond = await listed('admin', { size: '20', page: '500' });
    expect(beyond.content).toEqual([]);
    expect(beyond.page.totalElements).toBe(total);
  });
});

describe('a database with plants from before the counts (0020)', () => {
  test('counts the plants it already has, per organization', async () => {
    const engine = testEngine();
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const pool = database && postgresPool(database.url);
    const sqlite = pool ? undefined : new DatabaseSync(':memory:');
    sqlite?.exec('PRAGMA foreign_keys = ON');
    const db: Kysely<any> = sqlite
      ? new Kysely<any>({
          dialect: new SqliteDialect({ database: new NodeSqliteDatabase(sqlite) }),
        })
      : (postgresKysely(pool!, []) as Kysely<any>);
    try {
      const migrator = new Migrator({ db, provider: migrationProvider(engine) });
      expect((await migrator.migrateTo('0017_plant_text_suffixes')).error).toBeUndefined();
      const at = '2026-01-01T00:00:00.000Z';
      const plantsOf = { 'org-a': 3, 'org-b': 1, 'org-c': 0 };
      for (const [organization, count] of Object.entries(plantsOf)) {
        await db
          .insertInto('organizations')
          .values({ organization_uuid: organization, name: organization, created_at: at })
          .execute();
        for (let index = 0; index < count; index++) {
          await db
            .insertInto('plants')
            .values({
              plant_uuid: `${organization}-plant-${index}`,
              organization_uuid: organization,
              name: `Plant ${index}`,
              latitude: 45,
              longitude: 9,
              timezone: 'Europe/Rome',
              external_ids: '[]',
              metadata: '{}',
              created_at: at,
              updated_at: at,
            })
            .execute();
        }
      }
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const counts = await db
        .selectFrom('plant_counts')
        .select(['organization_uuid', 'plant_count'])
        .orderBy('organization_uuid')
        .execute();
      expect(counts).toEqual([
        { organization_uuid: 'org-a', plant_count: 3 },
        { organization_uuid: 'org-b', plant_count: 1 },
      ]);
      // Gone with their organization.
      await db.deleteFrom('organizations').where('organization_uuid', '=', 'org-a').execute();
      const left = await db.selectFrom('plant_counts').select('organization_uuid').execute();
      expect(left).toEqual([{ organization_uuid: 'org-b' }]);
    } finally {
      await db.destroy();
      await database?.drop();
    }
  });
});
