import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * A number per organization that moves, in the same transaction, with every write to its plants
 * or their external ids: whoever writes, on whichever instance. A server that remembers an
 * organization's plants (server/features/plants/plantDirectory.ts) asks for this one row per
 * request: the same number means the same plants, exactly, with nothing to invalidate across
 * instances and no staleness. Writes of readings, sensors or anything else leave it alone, so
 * ingestion never makes the remembered plants be read again.
 *
 * Same statements in effect on both engines, shaped like 0020's counts: an upsert for the
 * organization a plant or an external id is added to (or moved to), an update for the one it
 * leaves or is changed in. Only an update there: when an organization is deleted its plants go
 * by cascade, and its row with them. An organization without a row has version 0.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('plant_list_versions')
    .addColumn('organization_uuid', 'text', (c) =>
      c.primaryKey().references('organizations.organization_uuid').onDelete('cascade'),
    )
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  const added = (organization: string) => `
    insert into plant_list_versions (organization_uuid, version) values (${organization}, 1)
      on conflict (organization_uuid) do update set version = plant_list_versions.version + 1;`;
  const changed = (organization: string) => `
    update plant_list_versions set version = version + 1 where organization_uuid = ${organization};`;
  const tables = ['plants', 'plant_external_ids'];
  if (engine === 'postgres') {
    await sql
      .raw(
        `create function plant_list_versions_bump() returns trigger language plpgsql as $$
          begin
            if tg_op in ('UPDATE', 'DELETE') then ${changed('old.organization_uuid')} end if;
            if tg_op = 'INSERT' or (tg_op = 'UPDATE'
                and new.organization_uuid is distinct from old.organization_uuid) then
              ${added('new.organization_uuid')}
            end if;
            return null;
          end $$`,
      )
      .execute(db);
    for (const table of tables) {
      await sql
        .raw(
          `create trigger plant_list_versions_${table} after insert or update or delete on ${table}
            for each row execute function plant_list_versions_bump()`,
        )
        .execute(db);
    }
  } else {
    for (const table of tables) {
      const triggers = [
        `create trigger plant_list_versions_${table}_insert after insert on ${table}
          begin ${added('new.organization_uuid')} end`,
        `create trigger plant_list_versions_${table}_update after update on ${table}
          begin ${changed('old.organization_uuid')} end`,
        `create trigger plant_list_versions_${table}_moved after update of organization_uuid
          on ${table} when old.organization_uuid is not new.organization_uuid
          begin ${added('new.organization_uuid')} end`,
        `create trigger plant_list_versions_${table}_delete after delete on ${table}
          begin ${changed('old.organization_uuid')} end`,
      ];
      for (const trigger of triggers) await sql.raw(trigger).execute(db);
    }
  }
  // The organizations already there: every one that may have plants.
  await sql`insert into plant_list_versions (organization_uuid, version)
    select organization_uuid, 1 from organizations`.execute(db);
}
