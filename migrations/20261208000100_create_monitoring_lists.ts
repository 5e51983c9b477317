import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Named lists as versioned reference data (docs/monitoring.md, "Named lists"): what a rule's
 * `{ lista: 'paesi_alto_rischio' }` reads, and what a decision records the version of.
 *
 * - liste_riferimento: a list of a tenant by its code. `origine = 'riferimento'` lists are the
 *   product's reference data (EU high-risk third countries, FATF lists, EEA, the screening area's
 *   sanctioned crypto addresses): copied into the tenant as a new version whenever their content
 *   changes (a per-tenant copy keeps every tenant's versions its own and every table under the
 *   tenant policy), read-only for the tenant. `origine = 'tenant'` lists (countries, crypto
 *   addresses, counterparties) are the tenant's own, edited by the compliance officer and admin.
 * - liste_riferimento_versioni: every version with the hash of its entries; a version is never
 *   changed, an edit writes the next one.
 * - liste_riferimento_voci: the entries of a version (normalised: countries ISO alpha-2, crypto
 *   addresses canonical, counterparties upper-cased).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('liste_riferimento', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('tipo').notNullable();
    t.text('origine').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.text('fonte');
    t.integer('versione_corrente').notNullable().defaultTo(0);
    t.uuid('versione_id');
    t.integer('voci').notNullable().defaultTo(0);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'codice']);
  });
  await knex.raw(`alter table liste_riferimento
    add constraint liste_riferimento_codice check (codice ~ '^[a-z][a-z0-9_]{2,62}$'),
    add constraint liste_riferimento_nome check (char_length(btrim(nome)) between 1 and 200),
    add constraint liste_riferimento_tipo check (tipo in ('paesi', 'indirizzi_crypto', 'controparti')),
    add constraint liste_riferimento_origine check (origine in ('riferimento', 'tenant')),
    add constraint liste_riferimento_versione check (versione_corrente >= 0 and voci >= 0)`);
  await enableTenantRls(knex, 'liste_riferimento');

  await knex.schema.createTable('liste_riferimento_versioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('lista_id').notNullable().references('liste_riferimento.id');
    t.integer('versione').notNullable();
    t.text('hash').notNullable();
    t.integer('voci').notNullable();
    t.text('fonte');
    t.text('motivazione');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['lista_id', 'versione']);
  });
  await knex.raw('alter table liste_riferimento_versioni add constraint liste_riferimento_versioni_versione check (versione > 0 and voci >= 0)');
  await knex.raw('alter table liste_riferimento add constraint liste_riferimento_versione_fk foreign key (versione_id) references liste_riferimento_versioni (id)');
  await enableTenantRls(knex, 'liste_riferimento_versioni');

  await knex.schema.createTable('liste_riferimento_voci', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('versione_id').notNullable().references('liste_riferimento_versioni.id');
    t.text('valore').notNullable();
    t.text('nota');
    t.primary(['versione_id', 'valore']);
  });
  await knex.raw(`alter table liste_riferimento_voci
    add constraint liste_riferimento_voci_valore check (char_length(valore) between 1 and 200),
    add constraint liste_riferimento_voci_nota check (char_length(nota) <= 500)`);
  await enableTenantRls(knex, 'liste_riferimento_voci');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'liste_riferimento_voci');
  await knex.schema.dropTable('liste_riferimento_voci');
  await knex.raw('alter table liste_riferimento drop constraint liste_riferimento_versione_fk');
  await disableTenantRls(knex, 'liste_riferimento_versioni');
  await knex.schema.dropTable('liste_riferimento_versioni');
  await disableTenantRls(knex, 'liste_riferimento');
  await knex.schema.dropTable('liste_riferimento');
}
