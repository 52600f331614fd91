import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Db } from '../../server/db/database.ts';
import { ensureReadingPartitions } from '../../server/db/readingPartitions.ts';
import { startServer, type StartServerOptions } from '../../server/index.ts';
import { startPostgresCluster } from '../../test/support/postgresCluster.ts';
import { BenchApi } from './benchApi.ts';
import { ADMIN, createPlantModel, type YearPlant } from './yearPlant.ts';

/**
 * The year plant on PostgreSQL, in a throwaway cluster (`startPostgresCluster`): the same plant
 * made through the API of a server on that cluster, then its year of measurements copied in
 * bulk from the SQLite year database (readings, 15-minute, hourly and daily rollups and the
 * hours packed by day with their points, in the same zone, sensor by sensor, as `unnest` inserts of 20,000 rows): ingesting a year through the API or the store
 * would take PostgreSQL minutes the metrics benchmark does not measure. The copied rollups are
 * the ones the store made on SQLite, which it would make alike on PostgreSQL.
 * The server keys are random, as the test servers' are (`testServerKeys`).
 */

export interface PostgresYearPlant {
  /** Everything `startServer` needs to serve the plant's database. */
  serverOptions: StartServerOptions;
  plantUuid: string;
  stop(): Promise<void>;
}

const COPY_ROWS = 20_000;

/** Tables copied and their columns with PostgreSQL's array type for `unnest`. */
const TABLES: readonly { table: string; columns: readonly [string, string][] }[] = [
  {
    table: 'readings',
    columns: [
      ['taken_at', 'bigint'],
      ['value', 'float8'],
    ],
  },
  ...(['sensor_rollups', 'sensor_hourly_rollups', 'sensor_daily_rollups'] as const).map(
    (table) => ({
      table,
      columns: [
        ...(table === 'sensor_rollups'
          ? [['bucket_start', 'bigint'] as [string, string]]
          : table === 'sensor_hourly_rollups'
            ? [['hour_start', 'bigint'] as [string, string]]
            : [
                ['day_start', 'bigint'] as [string, string],
                ['day_end', 'bigint'] as [string, string],
              ]),
        ['energy_kwh', 'float8'],
        ['mean_value', 'float8'],
        ['min_value', 'float8'],
        ['max_value', 'float8'],
        ['sample_count', 'int4'],
        ['covered_seconds', 'float8'],
      ] as [string, string][],
    }),
  ),
  {
    table: 'sensor_hour_days',
    columns: [
      ['day_start', 'bigint'],
      ['hours', 'bytea'],
    ],
  },
  {
    table: 'sensor_hour_day_points',
    columns: [
      ['day_start', 'bigint'],
      ['points', 'text'],
    ],
  },
];

/** A quiet bench server on a PostgreSQL database, with random keys as the test servers have. */
export function benchServerOptions(db: string): StartServerOptions {
  return {
    port: 0,
    db,
    logger: false,
    simulation: false,
    jwtSecret: randomBytes(32).toString('base64url'),
    settingsKey: randomBytes(32).toString('base64url'),
  };
}

export async function postgresYearPlant(plant: YearPlant): Promise<PostgresYearPlant> {
  if (!plant.ingested) throw new Error('The SQLite year plant has no readings to copy yet');
  const cluster = await startPostgresCluster('plantdesk_bench');
  const serverOptions = benchServerOptions(cluster.url);
  try {
    const server = await startServer({ ...serverOptions, admin: ADMIN });
    try {
      const api = await BenchApi.login(server.url, ADMIN);
      const { plantUuid, sensors } = await createPlantModel(api);
      const started = performance.now();
      const rows = await copyMeasurements(
        plant.dbFile,
        server.context.db,
        new Map(
          plant.sensors.map((sensor, index) => [sensor.sensorUuid, sensors[index]!.sensorUuid]),
        ),
      );
      console.log(
        `PostgreSQL: copied ${rows.toLocaleString('en-US')} rows of readings and rollups from ` +
          `SQLite in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      return { serverOptions, plantUuid, stop: () => cluster.stop() };
    } finally {
      await server.close();
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** Copies every table of TABLES, renaming the sensors; answers the rows copied. */
async function copyMeasurements(
  sqliteFile: string,
  db: Db,
  sensorMap: ReadonlyMap<string, string>,
): Promise<number> {
  const source = new DatabaseSync(sqliteFile, { readOnly: true });
  let copied = 0;
  try {
    // `readings` is partitioned by month on PostgreSQL: the year's months must exist first.
    const span = source.prepare(
      'select min(taken_at) as first, max(taken_at) as last from readings',
    );
    const { first, last } = span.get() as { first: number | null; last: number | null };
    if (first !== null && last !== null) await ensureReadingPartitions(db, first, last);
    for (const { table, columns } of TABLES) {
      const names = columns.map(([name]) => name);
      const select = source.prepare(
        `select ${names.join(', ')} from ${table} where sensor_uuid = ? order by ${names[0]}`,
      );
      select.setReturnArrays(true);
      for (const [from, to] of sensorMap) {
        const rows = select.all(from) as unknown as unknown[][];
        for (let first = 0; first < rows.length; first += COPY_ROWS) {
          const chunk = rows.slice(first, first + COPY_ROWS);
          const arrays = columns.map(
            ([, type], index) =>
              sql`${chunk.map((row) => bindable(row[index]))}::${sql.raw(type)}[]`,
          );
          await sql`
            insert into ${sql.table(table)} (sensor_uuid, ${sql.join(names.map((name) => sql.ref(name)))})
            select ${to}::text, * from unnest(${sql.join(arrays)})
          `.execute(db);
          copied += chunk.length;
        }
      }
      await sql`analyze ${sql.table(table)}`.execute(db);
    }
  } finally {
    source.close();
  }
  return copied;
}

/** pg writes a Buffer in an array as bytea, and node:sqlite reads a blob as a plain Uint8Array. */
const bindable = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value) : value);
