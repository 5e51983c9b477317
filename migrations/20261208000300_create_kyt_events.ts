import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * KYT events (docs/monitoring.md, "KYT"): crypto transfers of the tenant's customers, sent by the
 * tenant's systems (POST /api/kyt/events) and evaluated on arrival like a movement. One row per
 * transfer and direction: the same chain and hash seen from both sides (two customers of the
 * tenant, one sending and one receiving) is two events; the same one sent again is the same event.
 *
 * The customer is resolved from an address the customer holds (wallets from onboarding, the
 * travel-rule records) or named by the sender; `risolto_da` says how. The event joins the
 * customer's history (engine: a movement with an address, an asset and a chain).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence kyt_eventi_numero');
  await knex.schema.createTable('kyt_eventi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.bigInteger('numero').notNullable().defaultTo(knex.raw("nextval('kyt_eventi_numero')"));
    t.text('chain').notNullable();
    t.text('hash').notNullable();
    t.text('direzione').notNullable();
    t.text('indirizzo_da').notNullable();
    t.text('indirizzo_a').notNullable();
    t.text('asset').notNullable();
    t.decimal('importo', 38, 18).notNullable();
    t.decimal('importo_eur', 18, 2).notNullable();
    t.timestamp('data_ora', { useTz: true }).notNullable();
    // The day in Europe/Rome: the customer's history and the daily batch work in days.
    t.date('giorno').notNullable();
    t.text('ora').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('risolto_da').notNullable();
    t.text('cod_decisione');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table kyt_eventi
    add column cod_evento text generated always as ('KYT-' || lpad(numero::text, greatest(7, length(numero::text)), '0')) stored,
    add constraint kyt_eventi_chain check (chain ~ '^[a-z0-9][a-z0-9_-]{1,31}$'),
    add constraint kyt_eventi_hash check (char_length(hash) between 8 and 128),
    add constraint kyt_eventi_direzione check (direzione in ('entrata', 'uscita')),
    add constraint kyt_eventi_indirizzi check (char_length(indirizzo_da) between 1 and 128 and char_length(indirizzo_a) between 1 and 128),
    add constraint kyt_eventi_asset check (asset ~ '^[A-Z0-9.]{2,16}$'),
    add constraint kyt_eventi_importo check (importo > 0 and importo_eur > 0),
    add constraint kyt_eventi_ora check (ora ~ '^[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$'),
    add constraint kyt_eventi_risolto check (risolto_da in ('wallet', 'travel_rule', 'cod_anagrafe', 'codice_esterno'))`);
  await knex.raw('create unique index kyt_eventi_transfer on kyt_eventi (cod_azienda, chain, hash, direzione)');
  await knex.raw('create unique index kyt_eventi_codice on kyt_eventi (cod_azienda, cod_evento)');
  // The list (newest first), its filters, and a customer's history by day.
  await knex.raw('create index kyt_eventi_list on kyt_eventi (cod_azienda, data_ora, id)');
  await knex.raw('create index kyt_eventi_cliente on kyt_eventi (cod_azienda, cod_anagrafe, giorno, id)');
  await knex.raw('create index kyt_eventi_cliente_ora on kyt_eventi (cod_azienda, cod_anagrafe, data_ora, id)');
  await knex.raw('create index kyt_eventi_chain_ora on kyt_eventi (cod_azienda, chain, data_ora, id)');
  await knex.raw('create index kyt_eventi_giorno on kyt_eventi (cod_azienda, giorno, cod_anagrafe)');
  await enableTenantRls(knex, 'kyt_eventi');
  // Resolving a customer from an address: the onboarding wallets by address.
  await knex.raw('create index if not exists wallets_indirizzo on wallets (cod_azienda, lower(indirizzo))');
  // ... and the travel-rule transfers of a known customer by either address.
  await knex.raw('create index if not exists travel_rule_indirizzo_beneficiario on travel_rule_transazioni (cod_azienda, lower(indirizzo_beneficiario)) where cod_anagrafe is not null');
  await knex.raw('create index if not exists travel_rule_indirizzo_originatore on travel_rule_transazioni (cod_azienda, lower(indirizzo_originatore)) where cod_anagrafe is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists travel_rule_indirizzo_originatore');
  await knex.raw('drop index if exists travel_rule_indirizzo_beneficiario');
  await knex.raw('drop index if exists wallets_indirizzo');
  await disableTenantRls(knex, 'kyt_eventi');
  await knex.schema.dropTable('kyt_eventi');
  await knex.raw('drop sequence kyt_eventi_numero');
}
