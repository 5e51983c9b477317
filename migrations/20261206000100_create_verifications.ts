import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * KYC and KYB verifications (docs/verifications.md, docs/processes.md "KYC / KYB verification"):
 * one durable workflow per verification (workflows/verification/) writes `verifiche`; a KYB's
 * checks are rows of `verifiche_checks`; `verifiche_documenti` names the documents a verification
 * relied on (their expiry brings the verification's own expiry forward). The CHECKs repeat the
 * machine's invariants so that no other writer can break them. Vocabularies are written out: a
 * migration is history.
 */
const STATI = "('pending', 'in_progress', 'approved', 'rejected', 'expired')";
const ORIGINI = "('manuale', 'onboarding', 'cdd', 'rinnovo')";
const STATI_CHECK = "('pending', 'passed', 'failed', 'waived')";
const TIPI_CHECK = "('registro', 'rappresentanti', 'titolari_effettivi', 'pep', 'sanzioni', 'informazioni_negative', 'documenti', 'altro')";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verifiche', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_verifica').notNullable();
    t.text('tipo').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('stato').notNullable().defaultTo('pending');
    t.text('origine').notNullable().defaultTo('manuale');
    t.uuid('onboarding_case_id');
    // What the applicant or the operator declared when the verification was opened (identity, company, owners).
    t.jsonb('dati_dichiarati').notNullable().defaultTo('{}');
    // KYB: the company profile (forma_giuridica, numero_registro, registro, codice_ateco, paese_costituzione,
    // data_costituzione, sede_legale {indirizzo, cap, comune, provincia, paese}, capitale_sociale).
    t.jsonb('profilo');
    t.text('motivo_rifiuto');
    // When the expiry timer fires: from the tenant's setting, earlier when a relied-on document expires.
    t.timestamp('scade_il', { useTz: true });
    // The latest beneficial-owner calculation's discrepancy with the declared owners (KYB).
    t.boolean('discrepanza_ubo').notNullable().defaultTo(false);
    t.jsonb('discrepanze_ubo').notNullable().defaultTo('[]');
    t.text('assegnata_a');
    t.text('started_by');
    t.timestamp('started_at', { useTz: true });
    t.text('decided_by');
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.text('workflow_id').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_verifica']);
    t.unique(['workflow_id']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table verifiche
    add constraint verifiche_tipo check (tipo in ('kyc', 'kyb')),
    add constraint verifiche_cod check ((tipo = 'kyc' and cod_verifica ~ '^KYC-[0-9]{6,}$') or (tipo = 'kyb' and cod_verifica ~ '^KYB-[0-9]{6,}$')),
    add constraint verifiche_stato check (stato in ${STATI}),
    add constraint verifiche_origine check (origine in ${ORIGINI}),
    add constraint verifiche_profilo check (profilo is null or tipo = 'kyb'),
    add constraint verifiche_rejected check (stato <> 'rejected' or (motivo_rifiuto is not null and length(btrim(motivo_rifiuto)) > 0)),
    add constraint verifiche_decided check (stato not in ('approved', 'rejected') or (decided_by is not null and decided_at is not null)),
    add constraint verifiche_expired check ((stato = 'expired') = (expired_at is not null))`);
  await knex.raw('create index verifiche_list on verifiche (cod_azienda, tipo, created_at desc, id)');
  await knex.raw('create index verifiche_stato on verifiche (cod_azienda, tipo, stato, created_at desc, id)');
  await knex.raw('create index verifiche_anagrafe on verifiche (cod_azienda, cod_anagrafe, created_at desc)');
  // One verification of a kind still being worked per customer.
  await knex.raw("create unique index verifiche_open on verifiche (cod_azienda, cod_anagrafe, tipo) where stato in ('pending', 'in_progress')");
  await enableTenantRls(knex, 'verifiche');

  await knex.schema.createTable('verifiche_checks', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('verifica_id').notNullable().references('verifiche.id');
    t.text('cod_check').notNullable();
    t.text('tipo').notNullable();
    t.text('descrizione');
    t.text('stato').notNullable().defaultTo('pending');
    t.text('esito_nota');
    // What the check relied on: registry extract, screening result, document codes...
    t.jsonb('evidenze').notNullable().defaultTo('[]');
    t.text('motivo_deroga');
    t.text('waived_by');
    t.text('updated_by');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_check']);
  });
  await knex.raw(`alter table verifiche_checks
    add constraint verifiche_checks_cod check (cod_check ~ '^CHK-[0-9]{6,}$'),
    add constraint verifiche_checks_tipo check (tipo in ${TIPI_CHECK}),
    add constraint verifiche_checks_stato check (stato in ${STATI_CHECK}),
    add constraint verifiche_checks_waived check (stato <> 'waived' or (motivo_deroga is not null and length(btrim(motivo_deroga)) > 0 and waived_by is not null))`);
  await knex.raw('create index verifiche_checks_verifica on verifiche_checks (cod_azienda, verifica_id, created_at, id)');
  // The standard checks are one per kind on a verification ('altro' may repeat).
  await knex.raw("create unique index verifiche_checks_tipo_unico on verifiche_checks (verifica_id, tipo) where tipo <> 'altro'");
  await enableTenantRls(knex, 'verifiche_checks');

  await knex.schema.createTable('verifiche_documenti', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('verifica_id').notNullable().references('verifiche.id');
    t.uuid('documento_id').notNullable().references('documenti.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['verifica_id', 'documento_id']);
  });
  await knex.raw('create index verifiche_documenti_documento on verifiche_documenti (cod_azienda, documento_id)');
  await enableTenantRls(knex, 'verifiche_documenti');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['verifiche_documenti', 'verifiche_checks', 'verifiche']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
