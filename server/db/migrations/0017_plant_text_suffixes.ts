import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * The plant search on SQLite as one range of an index: every suffix of each plant's lowered
 * name and external ids (cut to `SUFFIX_LENGTH` characters), with the plant, so the plants
 * containing a term are those with a suffix starting with it. Before, terms of one or two
 * characters, which no trigram can find, scanned every plant of the organization calling the
 * server's lower() (JavaScript, see database.ts) on each name and external id: 2.6 ms among
 * 2,000 plants for `de`; and the FTS5 trigram table (migration 0007) read the long lists of
 * common trigrams (`sit`, `ite`, `te-` of every `SITE-…` id): 21 µs of SQLite for `site-01234`
 * against about 2 µs for this range. Terms longer than a suffix still go to the FTS5 table.
 *
 * The suffixes are cut as the LIKE they replace reads `lower(text)`: by characters (code
 * points), from the whole lowered text, compared as bytes (BINARY on SQLite, collation "C"
 * on PostgreSQL: code point order), so a match is exactly a substring. On PostgreSQL the same
 * table serves the same terms, which pg_trgm finds only by reading every plant's trigrams when
 * they are shorter than a trigram, and with a bitmap of each common trigram's plants otherwise;
 * longer terms still go to pg_trgm. Kept by triggers that rebuild a plant's suffixes whenever its
 * name or external ids change. SQLite's triggers allow no WITH, so there the positions come from
 * a table of numbers (SQLite's own, under the `plant_search` prefix postgresSchema.test.ts
 * knows), as many as the longest lowered text the API accepts can have (names of 200 UTF-16
 * units; lowering at most doubles a character).
 */
export const SUFFIX_LENGTH = 32;
const POSITIONS = 1000;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  return engine === 'postgres' ? upOnPostgres(db) : upOnSqlite(db);
}

async function upOnPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table plant_text_suffixes (
    suffix text collate "C" not null,
    plant_uuid text not null,
    primary key (suffix, plant_uuid)
  )`.execute(db);
  await sql`create index plant_text_suffixes_plant on plant_text_suffixes (plant_uuid)`.execute(db);
  await sql
    .raw(
      `create function plant_text_suffixes_rebuild(plant text) returns void language sql as $$
        delete from plant_text_suffixes where plant_uuid = plant;
        insert into plant_text_suffixes (suffix, plant_uuid)
          select distinct substr(t.text, n, ${SUFFIX_LENGTH}), plant
          from (select lower(name) as text from plants where plant_uuid = plant
                union all
                select lower(x.external_id) from plant_external_ids x
                where x.plant_uuid = plant and exists (select 1 from plants where plant_uuid = plant)) t
          cross join lateral generate_series(1, length(t.text)) n
          on conflict do nothing;
      $$`,
    )
    .execute(db);
  await sql`create function plant_text_suffixes_of_plant() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from plant_text_suffixes where plant_uuid = old.plant_uuid;
      else
        perform plant_text_suffixes_rebuild(new.plant_uuid);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function plant_text_suffixes_of_external_id() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform plant_text_suffixes_rebuild(old.plant_uuid); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform plant_text_suffixes_rebuild(new.plant_uuid); end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger plant_text_suffixes_plant after insert or update of name or delete
    on plants for each row execute function plant_text_suffixes_of_plant()`.execute(db);
  await sql`create trigger plant_text_suffixes_external_id
    after insert or update of plant_uuid, external_id or delete
    on plant_external_ids for each row execute function plant_text_suffixes_of_external_id()`.execute(
    db,
  );
  // The plants already there.
  await sql`insert into plant_text_suffixes (suffix, plant_uuid)
    select distinct substr(t.text, n, ${SUFFIX_LENGTH}), t.plant_uuid
    from (select plant_uuid, lower(name) as text from plants
          union all select plant_uuid, lower(external_id) from plant_external_ids) t
    cross join lateral generate_series(1, length(t.text)) n`.execute(db);
}

async function upOnSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table plant_search_positions (n integer primary key)`.execute(db);
  await sql`insert into plant_search_positions (n)
    select value from json_each(${JSON.stringify(Array.from({ length: POSITIONS }, (_, i) => i + 1))})`.execute(
    db,
  );
  await sql`create table plant_text_suffixes (
    suffix text not null,
    plant_uuid text not null,
    primary key (suffix, plant_uuid)
  ) without rowid`.execute(db);
  await sql`create index plant_text_suffixes_plant on plant_text_suffixes (plant_uuid)`.execute(db);

  // LIMIT -1 keeps the texts a subquery of their own: flattened into the join, SQLite called
  // lower() (JavaScript) once per position and text, 2,000 calls and 1.4 ms per plant written.
  const rebuild = (plant: string) => `
    delete from plant_text_suffixes where plant_uuid = ${plant};
    insert or ignore into plant_text_suffixes (suffix, plant_uuid)
      select substr(t.text, p.n, ${SUFFIX_LENGTH}), ${plant}
      from (select lower(name) as text from plants where plant_uuid = ${plant}
            union all
            select lower(x.external_id) from plant_external_ids x
            where x.plant_uuid = ${plant} and exists (select 1 from plants where plant_uuid = ${plant})
            limit -1) t
      join plant_search_positions p on p.n <= length(t.text);`;
  const triggers = [
    `create trigger plant_text_suffixes_plant_insert after insert on plants begin ${rebuild('new.plant_uuid')} end`,
    `create trigger plant_text_suffixes_plant_rename after update of name on plants begin ${rebuild('new.plant_uuid')} end`,
    `create trigger plant_text_suffixes_plant_delete after delete on plants begin
      delete from plant_text_suffixes where plant_uuid = old.plant_uuid; end`,
    `create trigger plant_text_suffixes_external_id_insert after insert on plant_external_ids begin ${rebuild('new.plant_uuid')} end`,
    `create trigger plant_text_suffixes_external_id_update after update of plant_uuid, external_id on plant_external_ids begin ${rebuild('old.plant_uuid')} ${rebuild('new.plant_uuid')} end`,
    `create trigger plant_text_suffixes_external_id_delete after delete on plant_external_ids begin ${rebuild('old.plant_uuid')} end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);

  // The plants already there.
  await sql`insert or ignore into plant_text_suffixes (suffix, plant_uuid)
    select substr(t.text, p.n, ${SUFFIX_LENGTH}), t.plant_uuid
    from (select plant_uuid, lower(name) as text from plants
          union all select plant_uuid, lower(external_id) from plant_external_ids limit -1) t
    join plant_search_positions p on p.n <= length(t.text)`.execute(db);
}
