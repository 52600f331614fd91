import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { createOrganization, createUser } from '../features/auth/userStore.ts';
import { insertPlant } from '../features/plants/plantStore.ts';
import { DEMO_ACCOUNTS, DEMO_ORGANIZATIONS } from './accounts.ts';
import { readCatalogUuids } from './catalogUuids.ts';
import { DEFAULT_DEMO_FLEET_SIZE, demoFleet } from './demoFleet.ts';
import {
  DEMO_DEVICES,
  DEMO_PLANT,
  DEMO_SENSORS,
  type DemoDevice,
  type DemoSensor,
} from './demoPlant.ts';

/**
 * Seeds the demo organizations, accounts, the Demo Home plant and `fleetSize` plants of the demo
 * fleet (demoFleet.ts), once, on a database that has no account yet (a database with real
 * accounts is never given known passwords).
 */
export async function seedDemo(
  context: ServerContext,
  fleetSize = DEFAULT_DEMO_FLEET_SIZE,
): Promise<void> {
  const { db } = context;
  const anyUser = await db.selectFrom('users').select('user_uuid').limit(1).executeTakeFirst();
  if (anyUser) return;
  const at = context.now().toISOString();
  const hashes = await Promise.all(
    DEMO_ACCOUNTS.map((account) => context.passwords.hash(account.password)),
  );
  await db.transaction().execute(async (trx) => {
    const organizations = {
      demo: await createOrganization(trx, DEMO_ORGANIZATIONS.demo, at),
      other: await createOrganization(trx, DEMO_ORGANIZATIONS.other, at),
      platform: await createOrganization(trx, DEMO_ORGANIZATIONS.platform, at),
    };
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      await createUser(
        trx,
        {
          organizationUuid: organizations[account.organization],
          email: account.email,
          displayName: account.displayName,
          passwordHash: hashes[index]!,
          permissions: account.permissions,
        },
        at,
      );
    }
    const plant = await insertPlant(trx, organizations.demo, DEMO_PLANT, at);
    await seedDemoModel(trx, plant.plantUuid, at, { devices: DEMO_DEVICES, sensors: DEMO_SENSORS });
    for (const member of demoFleet(fleetSize, context.now().getTime())) {
      const fleetPlant = await insertPlant(trx, organizations.demo, member.plant, at);
      await seedDemoModel(trx, fleetPlant.plantUuid, at, member);
    }
  });
}

interface SimulatedModel {
  devices: readonly DemoDevice[];
  sensors: readonly (DemoSensor & { metadata?: Record<string, unknown> })[];
}

/** Looks up catalog entries by code; the demo plant must not be wired to a missing one. */
async function catalogLookup(db: Db) {
  const uuids = await readCatalogUuids(db);
  const byCode = (entries: Record<string, string>) => (code: string) => {
    const uuid = entries[code];
    if (!uuid) throw new Error(`Reference catalog entry ${code} is missing`);
    return uuid;
  };
  return {
    deviceType: byCode(uuids.deviceTypes),
    sensorType: byCode(uuids.sensorTypes),
    loadSignature: byCode(uuids.loadSignatures),
    dataType: byCode(uuids.dataTypes),
    vendor: byCode(uuids.vendors),
  };
}

async function seedDemoModel(
  db: Db,
  plantUuid: string,
  at: string,
  model: SimulatedModel,
): Promise<void> {
  const catalog = await catalogLookup(db);
  const simulator = catalog.vendor('SIMULATOR');

  await db
    .insertInto('plant_vendors')
    .values({
      plant_uuid: plantUuid,
      vendor_uuid: simulator,
      settings: '{}',
      configured_at: at,
      updated_at: at,
    })
    .execute();

  const deviceUuids = new Map<string, string>();
  for (const device of model.devices) {
    const deviceUuid = randomUUID();
    deviceUuids.set(device.key, deviceUuid);
    await db
      .insertInto('devices')
      .values({
        device_uuid: deviceUuid,
        plant_uuid: plantUuid,
        name: device.name,
        device_type_uuid: catalog.deviceType(device.deviceTypeCode),
        vendor_uuid: simulator,
        model: device.model,
        serial_number: device.serialNumber,
        rated_power_w: device.ratedPowerW,
        load_signature_uuid: device.loadSignatureCode
          ? catalog.loadSignature(device.loadSignatureCode)
          : null,
        metadata: '{}',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  for (const sensor of model.sensors) {
    const sensorUuid = randomUUID();
    await db
      .insertInto('sensors')
      .values({
        sensor_uuid: sensorUuid,
        plant_uuid: plantUuid,
        device_uuid: sensor.deviceKey ? deviceUuids.get(sensor.deviceKey)! : null,
        name: sensor.name,
        sensor_type_uuid: catalog.sensorType(sensor.sensorTypeCode),
        flow: sensor.flow,
        sampling_interval_seconds: 60,
        connection_vendor_uuid: simulator,
        connection_address: sensor.address,
        metadata: JSON.stringify(sensor.metadata ?? { simulated: true }),
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto('sensor_data_types')
      .values(
        sensor.dataTypes.map((code) => ({
          sensor_uuid: sensorUuid,
          data_types_collect_uuid: catalog.dataType(code),
        })),
      )
      .execute();
  }
}
