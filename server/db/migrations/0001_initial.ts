import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * The schema of the first issue: identity, plants and their model, catalogs and vendors.
 * Written with Kysely's schema builder and column types that mean the same on both engines (text,
 * integer, double precision; dates are ISO 8601 text, JSON documents text), so the schema is the
 * same on SQLite and PostgreSQL and `_engine` changes nothing here.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('organization_uuid', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('user_uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) =>
      c.notNull().references('organizations.organization_uuid').onDelete('cascade'),
    )
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_id', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('user_uuid', 'text', (c) =>
      c.notNull().references('users.user_uuid').onDelete('cascade'),
    )
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_family')
    .on('refresh_tokens')
    .column('family_id')
    .execute();

  await db.schema
    .createTable('plants')
    .addColumn('plant_uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) =>
      c.notNull().references('organizations.organization_uuid').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('latitude', 'double precision', (c) => c.notNull())
    .addColumn('longitude', 'double precision', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('altitude_m', 'double precision')
    .addColumn('pv_peak_power_kw', 'double precision')
    .addColumn('pv_tilt_deg', 'double precision')
    .addColumn('pv_azimuth_deg', 'double precision')
    .addColumn('pv_losses_percent', 'double precision')
    // The plant's external ids in order, as JSON, so reading a plant is one query; the
    // plant_external_ids table holds the same ids for uniqueness and filtering.
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plants_organization_name')
    .on('plants')
    .columns(['organization_uuid', 'name'])
    .execute();

  await db.schema
    .createTable('plant_external_ids')
    .addColumn('plant_uuid', 'text', (c) =>
      c.notNull().references('plants.plant_uuid').onDelete('cascade'),
    )
    .addColumn('organization_uuid', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_external_ids_pk', ['plant_uuid', 'external_id'])
    .addUniqueConstraint('plant_external_ids_unique_in_org', ['organization_uuid', 'external_id'])
    .execute();

  await db.schema
    .createTable('data_types_collects')
    .addColumn('data_types_collect_uuid', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sensor_types')
    .addColumn('sensor_type_uuid', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sensor_type_data_types')
    .addColumn('sensor_type_uuid', 'text', (c) =>
      c.notNull().references('sensor_types.sensor_type_uuid').onDelete('cascade'),
    )
    .addColumn('data_types_collect_uuid', 'text', (c) =>
      c.notNull().references('data_types_collects.data_types_collect_uuid'),
    )
    .addPrimaryKeyConstraint('sensor_type_data_types_pk', [
      'sensor_type_uuid',
      'data_types_collect_uuid',
    ])
    .execute();

  await db.schema
    .createTable('device_types')
    .addColumn('device_type_uuid', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('load_signatures')
    .addColumn('load_signature_uuid', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('device_type_uuid', 'text', (c) => c.references('device_types.device_type_uuid'))
    .addColumn('hourly_profile', 'text', (c) => c.notNull())
    .addColumn('typical_daily_kwh', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('vendors')
    .addColumn('vendor_uuid', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('config_schema', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('plant_vendors')
    .addColumn('plant_uuid', 'text', (c) =>
      c.notNull().references('plants.plant_uuid').onDelete('cascade'),
    )
    .addColumn('vendor_uuid', 'text', (c) => c.notNull().references('vendors.vendor_uuid'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('configured_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_vendors_pk', ['plant_uuid', 'vendor_uuid'])
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('device_uuid', 'text', (c) => c.primaryKey())
    .addColumn('plant_uuid', 'text', (c) =>
      c.notNull().references('plants.plant_uuid').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('device_type_uuid', 'text', (c) =>
      c.notNull().references('device_types.device_type_uuid'),
    )
    .addColumn('vendor_uuid', 'text', (c) => c.references('vendors.vendor_uuid'))
    .addColumn('model', 'text')
    .addColumn('serial_number', 'text')
    .addColumn('rated_power_w', 'double precision')
    .addColumn('load_signature_uuid', 'text', (c) =>
      c.references('load_signatures.load_signature_uuid'),
    )
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('devices_serial_unique_in_plant', ['plant_uuid', 'serial_number'])
    .execute();
  await db.schema.createIndex('devices_plant').on('devices').column('plant_uuid').execute();

  await db.schema
    .createTable('sensors')
    .addColumn('sensor_uuid', 'text', (c) => c.primaryKey())
    .addColumn('plant_uuid', 'text', (c) =>
      c.notNull().references('plants.plant_uuid').onDelete('cascade'),
    )
    .addColumn('device_uuid', 'text', (c) =>
      c.references('devices.device_uuid').onDelete('set null'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sensor_type_uuid', 'text', (c) =>
      c.notNull().references('sensor_types.sensor_type_uuid'),
    )
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('sampling_interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('connection_vendor_uuid', 'text', (c) => c.references('vendors.vendor_uuid'))
    .addColumn('connection_address', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sensors_plant').on('sensors').column('plant_uuid').execute();
  await db.schema.createIndex('sensors_device').on('sensors').column('device_uuid').execute();

  await db.schema
    .createTable('sensor_data_types')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    .addColumn('data_types_collect_uuid', 'text', (c) =>
      c.notNull().references('data_types_collects.data_types_collect_uuid'),
    )
    .addPrimaryKeyConstraint('sensor_data_types_pk', ['sensor_uuid', 'data_types_collect_uuid'])
    .execute();
}
