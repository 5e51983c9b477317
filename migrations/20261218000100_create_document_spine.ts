import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The document spine (docs/document-spine.md): one row per document the platform keeps, written in
 * the same transaction as the document itself. The areas that existed before it are indexed by the
 * triggers below (every writer of their tables, the workflow activities and the importers included);
 * new areas call `recordSpineDocument` (src/kit/document-sources.ts) in their store transaction.
 *
 * Tipping-off (art. 39 d.lgs. 231/2007, docs/sos.md): an SOS attachment's row names its report
 * (`sos_id`), and the restrictive policy `sos_confidential` shows it only where the report itself is
 * visible (the SOS area's own policy on sos_reports decides: roles sos or co, or its reporter).
 *
 * The retention date is not stored: it follows the customer's relationships, which change after the
 * document is indexed, and a stored copy would go stale for the rows a writer may not see (SOS). The
 * function `spine_conserva_fino` computes it where it is read (the list's page, the filter).
 */
const TRIGGERS: { table: string; fn: string; when: string; body: string }[] = [
  {
    table: 'onboarding_documents', fn: 'spine_from_onboarding', when: 'after insert',
    body: `insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, archivio, created_by, created_at)
      select gen_random_uuid(), new.cod_azienda, 'onboarding', new.id::text, new.sha256, new.nome_file, new.mime, new.dimensione, c.cod_anagrafe,
        'onboarding', new.case_id::text, 'store', new.uploaded_by, new.created_at
      from onboarding_cases c where c.id = new.case_id
      on conflict do nothing`,
  },
  {
    table: 'documenti_versioni', fn: 'spine_from_documento', when: 'after insert',
    body: `insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, created_by, created_at)
      select gen_random_uuid(), new.cod_azienda, 'documento', new.id::text, new.sha256, new.nome_file, new.mime, coalesce(new.dimensione, 0), d.cod_anagrafe,
        'documento', new.documento_id::text, d.cod_documento, 'Versione ' || new.versione, 'store', new.created_by, new.created_at
      from documenti d where d.id = new.documento_id
      on conflict do nothing`,
  },
  {
    table: 'cdd_evidenze', fn: 'spine_from_evidenza', when: 'after insert',
    body: `if new.sha256 is null then return null; end if;
      insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, created_by, created_at)
      select gen_random_uuid(), new.cod_azienda, 'evidenza', new.id::text, new.sha256, new.nome_file, coalesce(new.mime, 'application/octet-stream'), coalesce(new.dimensione, 0),
        p.cod_anagrafe, 'cdd', new.cdd_pratica_id::text, p.cod_pratica, left(new.descrizione, 500), 'store', new.created_by, new.created_at
      from cdd_pratiche p where p.id = new.cdd_pratica_id
      on conflict do nothing`,
  },
  {
    table: 'sos_allegati', fn: 'spine_from_sos', when: 'after insert',
    body: `insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, sos_id, created_by, created_at)
      select gen_random_uuid(), new.cod_azienda, 'sos_allegato', new.id::text, new.sha256, new.nome_file, new.mime, new.dimensione, r.cod_anagrafe,
        'sos', new.sos_id::text, r.cod_segnalazione, left(new.descrizione, 500), 'store', new.sos_id, new.created_by, new.created_at
      from sos_reports r where r.id = new.sos_id
      on conflict do nothing`,
  },
  {
    // A package is indexed each time it is (re)built: the new bytes are a new document.
    table: 'filings', fn: 'spine_from_filing', when: 'after insert or update of package_sha256',
    body: `if new.package_sha256 is null or new.package_xml is null or (tg_op = 'UPDATE' and old.package_sha256 is not distinct from new.package_sha256) then return null; end if;
      insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, record_tipo, record_id, descrizione, archivio, created_by, created_at)
      values (gen_random_uuid(), new.cod_azienda, 'pacchetto_filing', new.id::text, new.package_sha256, 'pacchetto-' || new.id || '.xml', 'application/xml',
        octet_length(convert_to(new.package_xml, 'UTF8')), 'filing', new.id::text, left(new.titolo, 500), 'record', coalesce(new.prepared_by, new.created_by), now())
      on conflict do nothing`,
  },
  {
    // The signed document once the ceremony is signed; its type read from its first bytes.
    table: 'esign_ceremonies', fn: 'spine_from_esign', when: 'after insert or update of stato',
    body: `if new.stato <> 'signed' or new.document_sha256 is null or (tg_op = 'UPDATE' and old.stato = 'signed') then return null; end if;
      insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, record_tipo, record_id, descrizione, archivio, created_by, created_at)
      values (gen_random_uuid(), new.cod_azienda, 'firma', new.id::text, new.document_sha256, new.document_name,
        case when substring(new.document_content from 1 for 5) = '\\x255044462d'::bytea then 'application/pdf'
             when substring(new.document_content from 1 for 3) = '\\xffd8ff'::bytea then 'image/jpeg'
             when substring(new.document_content from 1 for 8) = '\\x89504e470d0a1a0a'::bytea then 'image/png'
             else 'application/octet-stream' end,
        octet_length(new.document_content), 'esign', new.id::text, 'Firmato da ' || new.signer_nome, 'record', new.created_by, coalesce(new.signed_at, now()))
      on conflict do nothing`,
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence documenti_spine_numero');
  await knex.schema.createTable('documenti_spine', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.bigInteger('numero').notNullable().defaultTo(knex.raw("nextval('documenti_spine_numero')"));
    // The kind of document, named by the area that keeps it (its `documentSources` entry).
    t.text('tipo').notNullable();
    // The row of the keeping area this entry indexes (unique per kind: a trigger fired twice adds nothing).
    t.text('sorgente_id').notNullable();
    t.text('sha256').notNullable();
    t.text('nome_file').notNullable();
    t.text('mime').notNullable();
    t.bigInteger('dimensione').notNullable();
    t.text('cod_anagrafe');
    t.text('record_tipo').notNullable();
    t.text('record_id').notNullable();
    t.text('record_codice');
    t.text('descrizione').notNullable().defaultTo('');
    // Where the bytes are: the content-addressed document store, or the keeping area's record.
    t.text('archivio').notNullable();
    t.uuid('sos_id').references('sos_reports.id');
    t.boolean('blocco_legale').notNullable().defaultTo(false);
    t.text('blocco_motivo');
    t.text('blocco_by');
    t.timestamp('blocco_at', { useTz: true });
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table documenti_spine
    add column cod_spine text generated always as ('SPN-' || lpad(numero::text, greatest(6, length(numero::text)), '0')) stored,
    add constraint documenti_spine_sha check (sha256 ~ '^[0-9a-f]{64}$'),
    add constraint documenti_spine_dimensione check (dimensione >= 0),
    add constraint documenti_spine_archivio check (archivio in ('store', 'record')),
    add constraint documenti_spine_blocco check (blocco_legale = (blocco_motivo is not null) and (not blocco_legale or length(btrim(blocco_motivo)) > 0))`);
  await knex.raw('create unique index documenti_spine_sorgente on documenti_spine (cod_azienda, tipo, sorgente_id, sha256)');
  await knex.raw('create unique index documenti_spine_codice on documenti_spine (cod_azienda, cod_spine)');
  // The list: its sorts and each filter followed by the default sort, tenant first.
  await knex.raw('create index documenti_spine_created on documenti_spine (cod_azienda, created_at, id)');
  await knex.raw('create index documenti_spine_dimensione on documenti_spine (cod_azienda, dimensione, id)');
  await knex.raw('create index documenti_spine_tipo on documenti_spine (cod_azienda, tipo, created_at, id)');
  await knex.raw('create index documenti_spine_anagrafe on documenti_spine (cod_azienda, cod_anagrafe, created_at, id)');
  await knex.raw('create index documenti_spine_blocco on documenti_spine (cod_azienda, blocco_legale, created_at, id)');
  // The records citing a document: the same bytes, wherever they are kept.
  await knex.raw('create index documenti_spine_hash on documenti_spine (cod_azienda, sha256)');
  await knex.raw('create index documenti_spine_record on documenti_spine (cod_azienda, record_tipo, record_id)');

  // Art. 31 d.lgs. 231/2007: ten years after the relationship ends. Null while any of the customer's
  // relationships (held or with a role on it) is open; a customer without relationships, or a
  // document of no customer, counts from the document's date (an occasional operation's reading).
  // The same rule as src/domains/spine/spine.retention.ts (test/api/document-spine.test.ts holds them equal).
  await knex.raw(`create function spine_conserva_fino(p_azienda text, p_anagrafe text, p_created timestamptz) returns date
    language sql stable as $$
      with r as (
        select r.data_chiusura from rapporti r where r.cod_azienda = p_azienda and r.cod_anagrafe = p_anagrafe
        union all
        select r.data_chiusura from rapporti_soggetti s join rapporti r on r.cod_azienda = s.cod_azienda and r.cod_rapporto = s.cod_rapporto
         where s.cod_azienda = p_azienda and s.cod_anagrafe = p_anagrafe
      )
      select case
        when p_anagrafe is null or not exists (select 1 from r) then ((p_created at time zone 'Europe/Rome')::date + interval '10 years')::date
        when exists (select 1 from r where data_chiusura is null) then null
        else ((select max(data_chiusura) from r) + interval '10 years')::date
      end
    $$`);

  // A document under legal hold is never removed: not by its area, not by a purge.
  await knex.raw(`create function documenti_spine_guard() returns trigger language plpgsql as $$
    begin
      if old.blocco_legale then raise exception 'document % is under legal hold', old.cod_spine using errcode = 'P0001'; end if;
      return old;
    end $$`);
  await knex.raw('create trigger documenti_spine_guard before delete on documenti_spine for each row execute function documenti_spine_guard()');

  // Backfill before RLS: the migration runs without a tenant.
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, archivio, created_by, created_at)
    select gen_random_uuid(), o.cod_azienda, 'onboarding', o.id::text, o.sha256, o.nome_file, o.mime, o.dimensione, c.cod_anagrafe, 'onboarding', o.case_id::text, 'store', o.uploaded_by, o.created_at
    from onboarding_documents o join onboarding_cases c on c.id = o.case_id order by o.created_at`);
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, created_by, created_at)
    select gen_random_uuid(), v.cod_azienda, 'documento', v.id::text, v.sha256, v.nome_file, v.mime, coalesce(v.dimensione, 0), d.cod_anagrafe, 'documento', d.id::text, d.cod_documento,
      'Versione ' || v.versione, 'store', v.created_by, v.created_at
    from documenti_versioni v join documenti d on d.id = v.documento_id order by v.created_at`);
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, created_by, created_at)
    select gen_random_uuid(), e.cod_azienda, 'evidenza', e.id::text, e.sha256, e.nome_file, coalesce(e.mime, 'application/octet-stream'), coalesce(e.dimensione, 0), p.cod_anagrafe,
      'cdd', p.id::text, p.cod_pratica, left(e.descrizione, 500), 'store', e.created_by, e.created_at
    from cdd_evidenze e join cdd_pratiche p on p.id = e.cdd_pratica_id where e.sha256 is not null order by e.created_at`);
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, record_codice, descrizione, archivio, sos_id, created_by, created_at)
    select gen_random_uuid(), a.cod_azienda, 'sos_allegato', a.id::text, a.sha256, a.nome_file, a.mime, a.dimensione, r.cod_anagrafe, 'sos', r.id::text, r.cod_segnalazione,
      left(a.descrizione, 500), 'store', r.id, a.created_by, a.created_at
    from sos_allegati a join sos_reports r on r.id = a.sos_id order by a.created_at`);
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, record_tipo, record_id, descrizione, archivio, created_by, created_at)
    select gen_random_uuid(), f.cod_azienda, 'pacchetto_filing', f.id::text, f.package_sha256, 'pacchetto-' || f.id || '.xml', 'application/xml', octet_length(convert_to(f.package_xml, 'UTF8')),
      'filing', f.id::text, left(f.titolo, 500), 'record', coalesce(f.prepared_by, f.created_by), f.updated_at
    from filings f where f.package_sha256 is not null and f.package_xml is not null order by f.updated_at`);
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, record_tipo, record_id, descrizione, archivio, created_by, created_at)
    select gen_random_uuid(), e.cod_azienda, 'firma', e.id::text, e.document_sha256, e.document_name,
      case when substring(e.document_content from 1 for 5) = '\\x255044462d'::bytea then 'application/pdf'
           when substring(e.document_content from 1 for 3) = '\\xffd8ff'::bytea then 'image/jpeg'
           when substring(e.document_content from 1 for 8) = '\\x89504e470d0a1a0a'::bytea then 'image/png'
           else 'application/octet-stream' end,
      octet_length(e.document_content), 'esign', e.id::text, 'Firmato da ' || e.signer_nome, 'record', e.created_by, coalesce(e.signed_at, e.updated_at)
    from esign_ceremonies e where e.stato = 'signed' and e.document_sha256 is not null order by e.signed_at`);
  // Customer dossiers index themselves (recordSpineDocument in the generation's transaction); the ones
  // generated before this migration are backfilled here, as their activity would have written them.
  await knex.raw(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id, descrizione, archivio, created_by, created_at)
    select gen_random_uuid(), d.cod_azienda, 'dossier', d.id::text, d.pdf_sha256, 'fascicolo-' || d.cod_anagrafe || '-' || left(d.id::text, 8) || '.pdf', 'application/pdf',
      d.pdf_bytes, d.cod_anagrafe, 'dossier', d.id::text, 'Fascicolo del cliente ' || d.cod_anagrafe, 'record', d.created_by, d.created_at
    from dossiers d order by d.created_at`);

  await enableTenantRls(knex, 'documenti_spine');
  const visible = '(sos_id is null or exists (select 1 from sos_reports r where r.id = sos_id))';
  await knex.raw(`create policy sos_confidential on documenti_spine as restrictive using ${visible} with check ${visible}`);

  for (const t of TRIGGERS) {
    await knex.raw(`create function ${t.fn}() returns trigger language plpgsql as $$ begin ${t.body}; return null; end $$`);
    await knex.raw(`create trigger ${t.fn} ${t.when} on ${t.table} for each row execute function ${t.fn}()`);
  }
  // An onboarding document leaves the spine with its row (the applicant removed it), unless held.
  await knex.raw(`create function spine_onboarding_removed() returns trigger language plpgsql as $$ begin
      delete from documenti_spine where cod_azienda = old.cod_azienda and tipo = 'onboarding' and sorgente_id = old.id::text and not blocco_legale;
      return null; end $$`);
  await knex.raw('create trigger spine_onboarding_removed after delete on onboarding_documents for each row execute function spine_onboarding_removed()');
  // The customer an onboarding case becomes owns the documents uploaded before it existed.
  await knex.raw(`create function spine_onboarding_customer() returns trigger language plpgsql as $$ begin
      update documenti_spine set cod_anagrafe = new.cod_anagrafe
       where cod_azienda = new.cod_azienda and record_tipo = 'onboarding' and record_id = new.id::text and cod_anagrafe is distinct from new.cod_anagrafe;
      return null; end $$`);
  await knex.raw(`create trigger spine_onboarding_customer after update of cod_anagrafe on onboarding_cases for each row
    when (new.cod_anagrafe is not null and old.cod_anagrafe is distinct from new.cod_anagrafe) execute function spine_onboarding_customer()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists spine_onboarding_customer on onboarding_cases');
  await knex.raw('drop function if exists spine_onboarding_customer()');
  await knex.raw('drop trigger if exists spine_onboarding_removed on onboarding_documents');
  await knex.raw('drop function if exists spine_onboarding_removed()');
  for (const t of [...TRIGGERS].reverse()) {
    await knex.raw(`drop trigger if exists ${t.fn} on ${t.table}`);
    await knex.raw(`drop function if exists ${t.fn}()`);
  }
  await knex.raw('drop policy if exists sos_confidential on documenti_spine');
  await disableTenantRls(knex, 'documenti_spine');
  await knex.schema.dropTable('documenti_spine');
  await knex.raw('drop function documenti_spine_guard()');
  await knex.raw('drop function spine_conserva_fino(text, text, timestamptz)');
  await knex.raw('drop sequence documenti_spine_numero');
}
