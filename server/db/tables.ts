import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Timestamps are ISO 8601 UTC strings, JSON documents are text and booleans are
 * integers, so every column maps one-to-one onto PostgreSQL as well.
 */
export interface Database {
  settings: SettingsTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  plants: PlantsTable;
  plant_external_ids: PlantExternalIdsTable;
  plant_counts: PlantCountsTable;
  plant_list_versions: PlantListVersionsTable;
  data_types_collects: DataTypesCollectsTable;
  sensor_types: SensorTypesTable;
  sensor_type_data_types: SensorTypeDataTypesTable;
  device_types: DeviceTypesTable;
  load_signatures: LoadSignaturesTable;
  vendors: VendorsTable;
  plant_vendors: PlantVendorsTable;
  devices: DevicesTable;
  sensors: SensorsTable;
  sensor_data_types: SensorDataTypesTable;
  readings: ReadingsTable;
  sensor_rollups: SensorRollupsTable;
  sensor_hourly_rollups: SensorHourlyRollupsTable;
  sensor_daily_rollups: SensorDailyRollupsTable;
  sensor_hour_days: SensorHourDaysTable;
  sensor_hour_day_points: SensorHourDayPointsTable;
  externally_fed_sensors: ExternallyFedSensorsTable;
  throttle_events: ThrottleEventsTable;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface OrganizationsTable {
  organization_uuid: string;
  name: string;
  created_at: string;
}

export interface UsersTable {
  user_uuid: string;
  organization_uuid: string;
  email: string;
  display_name: string;
  password_hash: string;
  /** JSON array of permission names. */
  permissions: string;
  created_at: string;
}

export interface RefreshTokensTable {
  token_id: string;
  family_id: string;
  user_uuid: string;
  issued_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface PlantsTable {
  plant_uuid: string;
  organization_uuid: string;
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
  altitude_m: number | null;
  pv_peak_power_kw: number | null;
  pv_tilt_deg: number | null;
  pv_azimuth_deg: number | null;
  pv_losses_percent: number | null;
  /** JSON array, in order; mirrored in plant_external_ids. */
  external_ids: string;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface PlantExternalIdsTable {
  plant_uuid: string;
  organization_uuid: string;
  external_id: string;
  position: number;
}

/** Each organization's number of plants, kept by triggers (migration 0020); none is 0. */
export interface PlantCountsTable {
  organization_uuid: string;
  plant_count: number;
}

/** Moves with every write to an organization's plants or their external ids (migration 0021). */
export interface PlantListVersionsTable {
  organization_uuid: string;
  version: number;
}

export interface DataTypesCollectsTable {
  data_types_collect_uuid: string;
  code: string;
  name: string;
  unit: string;
}

export interface SensorTypesTable {
  sensor_type_uuid: string;
  code: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  /** The organization that added the entry; null: shared by every organization. */
  organization_uuid: string | null;
}

export interface SensorTypeDataTypesTable {
  sensor_type_uuid: string;
  data_types_collect_uuid: string;
}

export interface DeviceTypesTable {
  device_type_uuid: string;
  code: string;
  name: string;
  category: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  /** The organization that added the entry; null: shared by every organization. */
  organization_uuid: string | null;
}

export interface LoadSignaturesTable {
  load_signature_uuid: string;
  code: string;
  name: string;
  description: string | null;
  device_type_uuid: string | null;
  /** JSON array of 24 numbers. */
  hourly_profile: string;
  typical_daily_kwh: number | null;
  created_at: string;
  updated_at: string;
  /** The organization that added the entry; null: shared by every organization. */
  organization_uuid: string | null;
}

export interface VendorsTable {
  vendor_uuid: string;
  code: string;
  name: string;
  kind: string;
  /** JSON `{ fields: [...] }`. */
  config_schema: string;
  created_at: string;
}

export interface PlantVendorsTable {
  plant_uuid: string;
  vendor_uuid: string;
  /** JSON object, secret fields included (never answered). */
  settings: string;
  configured_at: string;
  updated_at: string;
}

export interface DevicesTable {
  device_uuid: string;
  plant_uuid: string;
  name: string;
  device_type_uuid: string;
  vendor_uuid: string | null;
  model: string | null;
  serial_number: string | null;
  rated_power_w: number | null;
  load_signature_uuid: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface SensorsTable {
  sensor_uuid: string;
  plant_uuid: string;
  device_uuid: string | null;
  name: string;
  sensor_type_uuid: string;
  flow: string;
  sampling_interval_seconds: number;
  /** 1: readings are negated on arrival (migration 0013, features/sensors/signInversion.ts). */
  sign_inverted: Generated<number>;
  connection_vendor_uuid: string | null;
  connection_address: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface SensorDataTypesTable {
  sensor_uuid: string;
  data_types_collect_uuid: string;
}

/** One reading of a sensor; `taken_at` in epoch milliseconds. */
export interface ReadingsTable {
  sensor_uuid: string;
  taken_at: number;
  value: number;
}

/** 15-minute rollup of a sensor; `bucket_start` in epoch milliseconds, a multiple of 900 000. */
/** Sums of whole UTC hours of 15-minute rollups (migration 0005). */
export interface SensorHourlyRollupsTable {
  sensor_uuid: string;
  hour_start: number;
  energy_kwh: number | null;
  mean_value: number;
  min_value: number;
  max_value: number;
  sample_count: number;
  covered_seconds: number;
}

/** A UTC day of a sensor's hourly rollups packed in one row (migration 0014, `hourDays.ts`). */
export interface SensorHourDaysTable {
  sensor_uuid: string;
  day_start: number;
  /** 24 pairs of little-endian float64: energy_kwh (null as 0), covered_seconds (NaN: no row). */
  hours: Uint8Array;
}

/**
 * The same day's hours as the JSON points of a one-sensor hourly power history in the plant's
 * zone (migration 0016, `hourPointsJson.ts`), kept with `sensor_hour_days` (`hourDays.ts`).
 */
export interface SensorHourDayPointsTable {
  sensor_uuid: string;
  day_start: number;
  points: string;
}

/** Sums of the 15-minute rollups of a local day of the plant's zone (migration 0005). */
export interface SensorDailyRollupsTable {
  sensor_uuid: string;
  day_start: number;
  day_end: number;
  energy_kwh: number | null;
  mean_value: number;
  min_value: number;
  max_value: number;
  sample_count: number;
  covered_seconds: number;
}

export interface SensorRollupsTable {
  sensor_uuid: string;
  bucket_start: number;
  energy_kwh: number | null;
  mean_value: number;
  min_value: number;
  max_value: number;
  sample_count: number;
  covered_seconds: number;
}

/** A sensor that received readings through the API: the simulator leaves it alone. */
export interface ExternallyFedSensorsTable {
  sensor_uuid: string;
  first_fed_at: string;
}

export type PlantRow = Selectable<PlantsTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type SensorRow = Selectable<SensorsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewPlant = Insertable<PlantsTable>;
export type PlantUpdate = Updateable<PlantsTable>;
export type { Generated };

export interface ThrottleEventsTable {
  scope: string;
  subject: string;
  at_ms: number;
}
