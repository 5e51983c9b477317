import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The corporate structure of a KYB (docs/ubo.md): a graph of nodes (persons, companies, trusts,
 * listed companies, public bodies) and edges (shareholding, voting rights, control, trust roles,
 * representation), and every beneficial-owner calculation made on it (calcola-ubo), kept with the
 * method's figures and paths so that a past result can be shown as it was computed.
 * An edge reads "da holds/controls/acts for a": da is the owner or person, a the entity.
 */
const TIPI_NODO = "('persona_fisica', 'societa', 'trust', 'societa_quotata', 'ente_pubblico')";
const TIPI_ARCO = `('partecipazione', 'controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale',
  'disponente', 'trustee', 'protettore', 'beneficiario', 'rappresentante_legale', 'amministratore', 'direttore')`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('strutture_nodi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('verifica_id').notNullable().references('verifiche.id');
    t.text('tipo').notNullable();
    t.text('denominazione').notNullable();
    t.text('codice_fiscale');
    t.text('paese');
    t.date('data_nascita');
    // The customer record the node is (the KYB's subject is the root; matched people and companies).
    t.text('cod_anagrafe');
    t.boolean('radice').notNullable().defaultTo(false);
    t.text('fonte').notNullable().defaultTo('manuale');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table strutture_nodi
    add constraint strutture_nodi_tipo check (tipo in ${TIPI_NODO}),
    add constraint strutture_nodi_fonte check (fonte in ('manuale', 'onboarding', 'registro', 'anagrafe')),
    add constraint strutture_nodi_paese check (paese is null or paese ~ '^[A-Z]{2}$'),
    add constraint strutture_nodi_denominazione check (length(btrim(denominazione)) > 0),
    add constraint strutture_nodi_radice check (not radice or tipo <> 'persona_fisica')`);
  await knex.raw('create index strutture_nodi_verifica on strutture_nodi (cod_azienda, verifica_id, created_at, id)');
  await knex.raw('create unique index strutture_nodi_una_radice on strutture_nodi (verifica_id) where radice');
  await enableTenantRls(knex, 'strutture_nodi');

  await knex.schema.createTable('strutture_archi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('verifica_id').notNullable().references('verifiche.id');
    t.uuid('da_nodo_id').notNullable().references('strutture_nodi.id');
    t.uuid('a_nodo_id').notNullable().references('strutture_nodi.id');
    t.text('tipo').notNullable();
    // Share of the capital held (partecipazione), and of the votes when it differs from the capital.
    t.decimal('percentuale', 7, 4);
    t.decimal('percentuale_voti', 7, 4);
    t.text('note');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table strutture_archi
    add constraint strutture_archi_tipo check (tipo in ${TIPI_ARCO}),
    add constraint strutture_archi_non_riflessivo check (da_nodo_id <> a_nodo_id),
    add constraint strutture_archi_percentuale check (percentuale is null or (percentuale > 0 and percentuale <= 100)),
    add constraint strutture_archi_voti check (percentuale_voti is null or (percentuale_voti >= 0 and percentuale_voti <= 100)),
    add constraint strutture_archi_partecipazione check (tipo <> 'partecipazione' or percentuale is not null)`);
  await knex.raw('create index strutture_archi_verifica on strutture_archi (cod_azienda, verifica_id, created_at, id)');
  await knex.raw('create unique index strutture_archi_unico on strutture_archi (verifica_id, da_nodo_id, a_nodo_id, tipo)');
  await enableTenantRls(knex, 'strutture_archi');

  await knex.schema.createTable('strutture_calcoli', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('verifica_id').notNullable().references('verifiche.id');
    t.decimal('soglia', 7, 4).notNullable();
    // The UboResult of src/domains/verifications/structure/ubo.types.ts, as computed.
    t.jsonb('risultato').notNullable();
    // Differences from the owners declared at onboarding: [{ tipo: 'mancante'|'non_dichiarato'|'quota', ... }].
    t.jsonb('discrepanze').notNullable().defaultTo('[]');
    t.integer('nodi').notNullable();
    t.integer('archi').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table strutture_calcoli add constraint strutture_calcoli_soglia check (soglia > 0 and soglia < 100)');
  await knex.raw('create index strutture_calcoli_verifica on strutture_calcoli (cod_azienda, verifica_id, created_at desc)');
  await enableTenantRls(knex, 'strutture_calcoli');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['strutture_calcoli', 'strutture_archi', 'strutture_nodi']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
