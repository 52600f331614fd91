import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ORGANIZATION_PERMISSIONS } from '../../api/index.ts';
import { openSqliteDatabase } from '../../server/db/database.ts';
import { NodeSqliteDatabase } from '../../server/db/nodeSqlite.ts';
import { migrationProvider } from '../../server/db/migrations/index.ts';
import { createOrganization, createUser } from '../../server/features/auth/userStore.ts';
import { createPlant, freshLogin } from '../support/entities.ts';
import { referenceUuids, type ReferenceUuids } from '../support/referenceData.ts';
import { expectErrorBody, TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * The catalogs of several organizations: shared reference entries only the platform writes, and
 * entries of one organization that no other sees, uses, counts or collides with.
 */

let server: TestServer;
let reference: ReferenceUuids;
const tokens = {} as Record<DemoRole | 'rival', string>;

const RIVAL = { email: 'catalogs@rival.test', password: 'rival-pass-1' };

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'outsider', 'operator'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  // A second organization whose administrator also keeps a catalog of its own.
  const { context } = server.server;
  const at = context.now().toISOString();
  const passwordHash = await context.passwords.hash(RIVAL.password);
  await context.db.transaction().execute(async (trx) => {
    const organizationUuid = await createOrganization(trx, 'Rival Energy', at);
    await createUser(
      trx,
      {
        organizationUuid,
        email: RIVAL.email,
        displayName: 'Rita Rival',
        passwordHash,
        permissions: ORGANIZATION_PERMISSIONS,
      },
      at,
    );
  });
  tokens.rival = (await freshLogin(server, RIVAL.email, RIVAL.password)).accessToken;
  reference = await referenceUuids(server);
});

afterAll(async () => {
  await server?.close();
});

const post = (path: string, token: string, body: unknown) =>
  server.request('POST', path, { token, body });

describe("an organization's own entries", () => {
  test('are marked, seen and used only by their organization', async () => {
    const created = await post('/device-types', tokens.admin, {
      code: 'DEMO_HEAT_STORE',
      category: 'STORAGE',
    });
    expect(created.status).toBe(201);
    expect(created.body.shared).toBe(false);
    const uuid = created.body.deviceTypeUuid as string;

    // The organization's installer sees and uses it.
    const installerList = await server.request('GET', '/device-types', {
      token: tokens.installer,
      query: { size: 200 },
    });
    expect(installerList.body.content.map((entry: { code: string }) => entry.code)).toContain(
      'DEMO_HEAT_STORE',
    );
    const demoPlant = await server.demoPlantUuid();
    const device = await post(`/plants/${demoPlant}/devices`, tokens.installer, {
      deviceTypeUuid: uuid,
    });
    expect(device.status).toBe(201);

    // Another organization neither lists, reads, changes nor uses it.
    const outsiderList = await server.request('GET', '/device-types', {
      token: tokens.outsider,
      query: { size: 200, search: 'DEMO_HEAT' },
    });
    expect(outsiderList.body.content).toEqual([]);
    expect(outsiderList.body.page.totalElements).toBe(0);
    expect(
      expectErrorBody(
        await server.request('GET', `/device-types/${uuid}`, { token: tokens.outsider }),
        404,
      ).message,
    ).toBe(`Device type ${uuid} not found`);
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await server.request(method, `/device-types/${uuid}`, {
        token: tokens.rival,
        body: method === 'PUT' ? { name: 'Taken over' } : undefined,
      });
      expectErrorBody(response, 404);
    }
    const outsiderPlant = await createPlant(server, tokens.outsider);
    const refused = await post(`/plants/${outsiderPlant.plantUuid}/devices`, tokens.outsider, {
      deviceTypeUuid: uuid,
    });
    expect(expectErrorBody(refused, 422).message).toBe(
      `deviceTypeUuid ${uuid} does not name a device type`,
    );
  });

  test('sensor types and load signatures likewise', async () => {
    const sensorType = await post('/sensor-types', tokens.rival, { code: 'RIVAL_PROBE' });
    expect(sensorType.status).toBe(201);
    const demoPlant = await server.demoPlantUuid();
    const sensor = await post(`/plants/${demoPlant}/sensors`, tokens.admin, {
      sensorTypeUuid: sensorType.body.sensorTypeUuid,
    });
    expect(expectErrorBody(sensor, 422).message).toBe(
      `sensorTypeUuid ${sensorType.body.sensorTypeUuid} does not name a sensor type`,
    );
    // The field at fault, by name (extension): clients place the refusal without reading it.
    expect(sensor.body.errors).toEqual([
      {
        field: 'sensorTypeUuid',
        message: `sensorTypeUuid ${sensorType.body.sensorTypeUuid} does not name a sensor type`,
      },
    ]);
    const signature = await post('/load-signatures', tokens.rival, { code: 'RIVAL_PROFILE' });
    expect(signature.status).toBe(201);
    const device = await post(`/plants/${demoPlant}/devices`, tokens.admin, {
      deviceTypeUuid: reference.deviceTypes.HEAT_PUMP,
      loadSignatureUuid: signature.body.loadSignatureUuid,
    });
    expect(expectErrorBody(device, 422).message).toContain('does not name a load signature');
    // Nor may a signature of one organization point at another's device type.
    const rivalType = await post('/device-types', tokens.rival, { code: 'RIVAL_TYPE' });
    const crossed = await post('/load-signatures', tokens.admin, {
      code: 'CROSSED',
      deviceTypeUuid: rivalType.body.deviceTypeUuid,
    });
    expect(expectErrorBody(crossed, 422).message).toBe(
      `deviceTypeUuid ${rivalType.body.deviceTypeUuid} does not name a device type`,
    );
  });

  test('codes are unique within what an organization sees, not across organizations', async () => {
    expect((await post('/device-types', tokens.admin, { code: 'SAUNA' })).status).toBe(201);
    // Another organization's SAUNA is invisible: the rival may have one too.
    expect((await post('/device-types', tokens.rival, { code: 'SAUNA' })).status).toBe(201);
    const again = await post('/device-types', tokens.admin, { code: 'SAUNA' });
    expect(expectErrorBody(again, 409).message).toBe("Device type code 'SAUNA' is already used");
    const shadowing = await post('/device-types', tokens.rival, { code: 'INVERTER' });
    expect(expectErrorBody(shadowing, 409).message).toBe(
      "Device type code 'INVERTER' is already used",
    );
    // A shared entry may not take a code some organization already uses.
    const shared = await post('/device-types', tokens.operator, { code: 'SAUNA', shared: true });
    expectErrorBody(shared, 409);
  });
});

describe('the shared reference entries', () => {
  test("no organization's administrator can rename, recategorize or delete them", async () => {
    const inverter = reference.deviceTypes.INVERTER!;
    for (const token of [tokens.admin, tokens.rival]) {
      const renamed = await server.request('PUT', `/device-types/${inverter}`, {
        token,
        body: { name: 'Hijacked', category: 'CONSUMER' },
      });
      expect(expectErrorBody(renamed, 403).message).toBe(
        "Permission REFERENCE_CATALOGS UPDATE required: device type 'INVERTER' is shared by every organization",
      );
      const deleted = await server.request('DELETE', `/device-types/${inverter}`, { token });
      expect(expectErrorBody(deleted, 403).message).toBe(
        "Permission REFERENCE_CATALOGS DELETE required: device type 'INVERTER' is shared by every organization",
      );
    }
    const read = await server.request('GET', `/device-types/${inverter}`, { token: tokens.admin });
    expect(read.body).toMatchObject({ name: 'PV inverter', category: 'PRODUCER', shared: true });
    const signature = await server.request(
      'PUT',
      `/load-signatures/${reference.loadSignatures.HOUSEHOLD_BASE}`,
      { token: tokens.admin, body: { name: 'Hijacked' } },
    );
    expect(expectErrorBody(signature, 403).message).toContain('REFERENCE_CATALOGS UPDATE');
    const sensorType = await server.request(
      'PUT',
      `/sensor-types/${reference.sensorTypes.POWER_METER}`,
      { token: tokens.admin, body: { name: 'Hijacked' } },
    );
    expect(expectErrorBody(sensorType, 403).message).toContain('REFERENCE_CATALOGS UPDATE');
  });

  test('only the platform creates and changes them', async () => {
    const refused = await post('/sensor-types', tokens.admin, {
      code: 'SHARED_PROBE',
      shared: true,
    });
    expect(expectErrorBody(refused, 403).message).toBe(
      "Permission REFERENCE_CATALOGS CREATE required: sensor type 'SHARED_PROBE' is shared by every organization once created",
    );
    const created = await post('/sensor-types', tokens.operator, {
      code: 'SHARED_PROBE',
      shared: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.shared).toBe(true);
    const uuid = created.body.sensorTypeUuid as string;
    for (const token of [tokens.outsider, tokens.rival, tokens.installer]) {
      const read = await server.request('GET', `/sensor-types/${uuid}`, { token });
      expect(read.status).toBe(200);
    }
    const renamed = await server.request('PUT', `/sensor-types/${uuid}`, {
      token: tokens.operator,
      body: { name: 'Shared probe' },
    });
    expect(renamed.body).toMatchObject({ name: 'Shared probe', shared: true });
    // A shared signature may only refer to a shared device type.
    const ownType = await post('/device-types', tokens.operator, { code: 'PLATFORM_OWN' });
    expect(ownType.body.shared).toBe(false);
    const crossed = await post('/load-signatures', tokens.operator, {
      code: 'SHARED_CROSSED',
      shared: true,
      deviceTypeUuid: ownType.body.deviceTypeUuid,
    });
    expect(expectErrorBody(crossed, 422).message).toContain(
      'a shared entry may only refer to shared ones',
    );
    const deleted = await server.request('DELETE', `/sensor-types/${uuid}`, {
      token: tokens.operator,
    });
    expect(deleted.status).toBe(204);
  });

  test("a refused delete counts the caller's organization and only mentions the others", async () => {
    const heatPump = reference.deviceTypes.HEAT_PUMP!;
    const response = await server.request('DELETE', `/device-types/${heatPump}`, {
      token: tokens.operator,
    });
    const message = expectErrorBody(response, 409).message;
    expect(message).toBe(
      "Device type 'HEAT_PUMP' is used by 1 load signature and other organizations; it cannot be deleted",
    );
    expect(message).not.toMatch(/\d+ devices?/);
  });
});

describe('a database from before organizations had catalogs', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'plantdesk-catalog-scopes-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('keeps every entry as a shared one, with the references that use it', async () => {
    const file = join(folder, 'old.db');
    const sqlite = new DatabaseSync(file);
    sqlite.exec('PRAGMA foreign_keys = ON');
    const old = new Kysely<any>({
      dialect: new SqliteDialect({ database: new NodeSqliteDatabase(sqlite) }),
    });
    const { error } = await new Migrator({
      db: old,
      provider: migrationProvider('sqlite'),
    }).migrateTo('0003_externally_fed_sensors');
    expect(error).toBeUndefined();
    const at = '2026-01-01T00:00:00.000Z';
    await old
      .insertInto('organizations')
      .values({ organization_uuid: 'org-1', name: 'Old Co', created_at: at })
      .execute();
    await old
      .insertInto('device_types')
      .values({
        device_type_uuid: 'dt-1',
        code: 'OLD_TYPE',
        name: 'Old type',
        category: 'CONSUMER',
        description: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await old
      .insertInto('load_signatures')
      .values({
        load_signature_uuid: 'ls-1',
        code: 'OLD_SIGNATURE',
        name: 'Old signature',
        description: null,
        device_type_uuid: 'dt-1',
        hourly_profile: JSON.stringify(Array(24).fill(1 / 24)),
        typical_daily_kwh: 3,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await old.destroy();

    const migrated = await openSqliteDatabase(file);
    try {
      const types = await migrated.db.selectFrom('device_types').selectAll().execute();
      expect(types).toEqual([
        expect.objectContaining({ code: 'OLD_TYPE', organization_uuid: null }),
      ]);
      const signatures = await migrated.db.selectFrom('load_signatures').selectAll().execute();
      expect(signatures).toEqual([
        expect.objectContaining({
          code: 'OLD_SIGNATURE',
          device_type_uuid: 'dt-1',
          typical_daily_kwh: 3,
        }),
      ]);
      // The foreign key still holds after the rebuild: the type cannot go while referenced.
      await expect(
        migrated.db.deleteFrom('device_types').where('device_type_uuid', '=', 'dt-1').execute(),
      ).rejects.toThrow(/FOREIGN KEY/);
      // Codes are unique per scope now.
      await migrated.db
        .insertInto('device_types')
        .values({
          device_type_uuid: 'dt-2',
          code: 'OLD_TYPE',
          name: 'Own copy',
          category: 'CONSUMER',
          description: null,
          organization_uuid: 'org-1',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await expect(
        migrated.db
          .insertInto('device_types')
          .values({
            device_type_uuid: 'dt-3',
            code: 'OLD_TYPE',
            name: 'Second copy',
            category: 'CONSUMER',
            description: null,
            organization_uuid: 'org-1',
            created_at: at,
            updated_at: at,
          })
          .execute(),
      ).rejects.toThrow(/UNIQUE/);
    } finally {
      await migrated.close();
    }
  });
});
