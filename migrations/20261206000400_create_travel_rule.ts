import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Travel-rule transfers (Regulation (EU) 2023/1113, docs/travel-rule.md): one durable workflow per
 * transfer (workflows/travel-rule/) writes `travel_rule_transazioni`; every decision is kept in
 * `travel_rule_decisioni` with the rules that led to it (a held transfer is decided again).
 */
const STATI = "('received', 'screened', 'approved', 'rejected', 'returned', 'held')";
const DECISIONI = "('approved', 'rejected', 'returned', 'held')";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('travel_rule_transazioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_transazione').notNullable();
    // in_uscita: we are the originator's provider (art. 14); in_entrata: the beneficiary's (art. 16–17).
    t.text('direzione').notNullable();
    t.text('cod_anagrafe');
    t.text('asset').notNullable();
    t.text('rete');
    t.decimal('importo', 38, 18).notNullable();
    t.decimal('importo_eur', 20, 2);
    t.text('tx_hash');
    t.text('indirizzo_originatore');
    t.text('indirizzo_beneficiario').notNullable();
    // The counterparty's wallet: hosted by a provider (vasp) or self-hosted.
    t.text('tipo_wallet').notNullable().defaultTo('vasp');
    t.text('vasp_controparte');
    // Proof of control of a self-hosted address (onboarding's wallet proof: message, signature, verified).
    t.jsonb('prova_controllo');
    // The IVMS101 payload as received (originator, beneficiary, originatingVASP, beneficiaryVASP).
    t.jsonb('ivms101').notNullable();
    t.text('stato').notNullable().defaultTo('received');
    // Names through the screening area, addresses through the sanctioned-address list.
    t.jsonb('screening');
    t.timestamp('screened_at', { useTz: true });
    t.text('screened_by');
    t.text('decisione');
    t.text('motivo');
    // [{ regola, articolo, esito, messaggio }] that led to the latest decision.
    t.jsonb('regole').notNullable().defaultTo('[]');
    // IVMS101 fields missing or incomplete (a held transfer asks for them).
    t.jsonb('informazioni_mancanti').notNullable().defaultTo('[]');
    t.text('decided_by');
    t.timestamp('decided_at', { useTz: true });
    // The sender's own id of the transfer: recording it twice is idempotent.
    t.text('riferimento_esterno');
    t.text('workflow_id').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_transazione']);
    t.unique(['workflow_id']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table travel_rule_transazioni
    add constraint travel_rule_cod check (cod_transazione ~ '^TRR-[0-9]{6,}$'),
    add constraint travel_rule_direzione check (direzione in ('in_uscita', 'in_entrata')),
    add constraint travel_rule_tipo_wallet check (tipo_wallet in ('vasp', 'self_hosted')),
    add constraint travel_rule_stato check (stato in ${STATI}),
    add constraint travel_rule_decisione check (decisione is null or decisione in ${DECISIONI}),
    add constraint travel_rule_importo check (importo > 0 and (importo_eur is null or importo_eur >= 0)),
    add constraint travel_rule_decided check (decisione is null or (decided_by is not null and decided_at is not null and motivo is not null)),
    add constraint travel_rule_stato_decisione check (stato in ('received', 'screened') or stato = decisione),
    add constraint travel_rule_screened check (stato = 'received' or screened_at is not null)`);
  await knex.raw('create index travel_rule_list on travel_rule_transazioni (cod_azienda, created_at desc, id)');
  await knex.raw('create index travel_rule_stato on travel_rule_transazioni (cod_azienda, stato, created_at desc, id)');
  await knex.raw('create index travel_rule_anagrafe on travel_rule_transazioni (cod_azienda, cod_anagrafe, created_at desc)');
  await knex.raw('create unique index travel_rule_riferimento on travel_rule_transazioni (cod_azienda, riferimento_esterno) where riferimento_esterno is not null');
  await enableTenantRls(knex, 'travel_rule_transazioni');

  await knex.schema.createTable('travel_rule_decisioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('transazione_id').notNullable().references('travel_rule_transazioni.id');
    t.text('decisione').notNullable();
    t.text('motivo').notNullable();
    t.jsonb('regole').notNullable().defaultTo('[]');
    t.jsonb('informazioni_mancanti').notNullable().defaultTo('[]');
    t.text('decided_by').notNullable();
    t.timestamp('decided_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table travel_rule_decisioni add constraint travel_rule_decisioni_decisione check (decisione in ${DECISIONI})`);
  await knex.raw('create index travel_rule_decisioni_transazione on travel_rule_decisioni (cod_azienda, transazione_id, decided_at)');
  await enableTenantRls(knex, 'travel_rule_decisioni');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['travel_rule_decisioni', 'travel_rule_transazioni']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
