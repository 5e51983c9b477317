import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Document records (docs/documents.md): the records area's `documenti` gain a code (DOC-000001),
 * the outcome of their last verification, and their files become versions (`documenti_versioni`):
 * a replacement adds a version and keeps the old ones. `documenti.sha256/nome_file/mime` stay the
 * current version's copy so that existing readers keep working. Existing rows are kept: codes and
 * first versions are backfilled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await knex.schema.alterTable('documenti', (t) => {
    t.text('cod_documento');
    t.integer('versione').notNullable().defaultTo(1);
    t.bigInteger('dimensione');
    // The machine-readable zone of a passport or identity card, as typed or read (ICAO Doc 9303).
    t.text('mrz');
    t.text('esito_verifica').notNullable().defaultTo('da_verificare');
    // [{ controllo, esito: 'ok'|'ko'|'non_applicabile', messaggio, dettagli }] of the last verification.
    t.jsonb('verifica').notNullable().defaultTo('[]');
    t.text('verificato_by');
    t.timestamp('verificato_at', { useTz: true });
    t.text('updated_by');
  });
  await knex.raw(`
    with numbered as (
      select id, cod_azienda, row_number() over (partition by cod_azienda order by created_at, id) as n from documenti)
    update documenti d set cod_documento = 'DOC-' || lpad(numbered.n::text, 6, '0') from numbered where numbered.id = d.id`);
  await knex.raw(`
    insert into codici_progressivi (cod_azienda, serie, ultimo)
    select cod_azienda, 'DOC', count(*) from documenti group by cod_azienda
    on conflict (cod_azienda, serie) do update set ultimo = greatest(codici_progressivi.ultimo, excluded.ultimo)`);
  await knex.raw('alter table documenti alter column cod_documento set not null');
  await knex.raw(`alter table documenti
    add constraint documenti_cod check (cod_documento ~ '^DOC-[0-9]{6,}$'),
    add constraint documenti_versione check (versione >= 1),
    add constraint documenti_esito check (esito_verifica in ('da_verificare', 'valido', 'non_valido')),
    add constraint documenti_verificato check (esito_verifica = 'da_verificare' or (verificato_by is not null and verificato_at is not null))`);
  await knex.raw('create unique index documenti_cod_documento on documenti (cod_azienda, cod_documento)');
  await knex.raw('create index documenti_tenant_esito_created on documenti (cod_azienda, esito_verifica, created_at, id)');

  await knex.schema.createTable('documenti_versioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('documento_id').notNullable().references('documenti.id');
    t.integer('versione').notNullable();
    t.text('sha256').notNullable();
    t.text('nome_file').notNullable();
    t.text('mime').notNullable();
    t.bigInteger('dimensione');
    // Why this version replaced the previous one (the first has none).
    t.text('motivo');
    // The document's fields as they were with this version (numero, date, autorità).
    t.jsonb('dati').notNullable().defaultTo('{}');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['documento_id', 'versione']);
  });
  await knex.raw(`alter table documenti_versioni
    add constraint documenti_versioni_sha check (sha256 ~ '^[0-9a-f]{64}$'),
    add constraint documenti_versioni_versione check (versione >= 1),
    add constraint documenti_versioni_motivo check (versione = 1 or (motivo is not null and length(btrim(motivo)) > 0))`);
  await knex.raw('create index documenti_versioni_documento on documenti_versioni (cod_azienda, documento_id, versione desc)');
  await knex.raw(`
    insert into documenti_versioni (id, cod_azienda, documento_id, versione, sha256, nome_file, mime, dati, created_by, created_at)
    select gen_random_uuid(), cod_azienda, id, 1, sha256, nome_file, mime,
      jsonb_build_object('numero', numero, 'data_rilascio', data_rilascio, 'data_scadenza', data_scadenza, 'autorita_rilascio', autorita_rilascio),
      created_by, created_at
    from documenti where sha256 is not null`);
  await enableTenantRls(knex, 'documenti_versioni');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await disableTenantRls(knex, 'documenti_versioni');
  await knex.schema.dropTable('documenti_versioni');
  await knex.raw('drop index if exists documenti_cod_documento');
  await knex.raw('drop index if exists documenti_tenant_esito_created');
  for (const c of ['documenti_cod', 'documenti_versione', 'documenti_esito', 'documenti_verificato']) {
    await knex.raw('alter table documenti drop constraint if exists ??', [c]);
  }
  await knex.schema.alterTable('documenti', (t) => {
    t.dropColumns('cod_documento', 'versione', 'dimensione', 'mrz', 'esito_verifica', 'verifica', 'verificato_by', 'verificato_at', 'updated_by');
  });
  await knex.raw("delete from codici_progressivi where serie = 'DOC'");
}
