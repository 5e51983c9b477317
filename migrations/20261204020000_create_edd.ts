import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * EDD cases (adeguata verifica rafforzata, art. 24-25 d.lgs. 231/2007) and their steps, the
 * enhanced measures taken for one customer. One durable workflow per case
 * (workflows/edd/edd.workflow.ts) writes both tables; the CHECKs repeat the machine's
 * invariants so that no other writer can break them (an approval by the submitter included).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('edd_casi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_edd').notNullable();
    t.text('cod_anagrafe').notNullable();
    // The CDD task that required enhanced measures, when there was one (no FK: the CDD area owns it).
    t.uuid('cdd_pratica_id');
    t.jsonb('motivi').notNullable().defaultTo('[]');
    t.text('descrizione').notNullable().defaultTo('');
    t.text('stato').notNullable();
    t.text('opened_by').notNullable();
    t.text('submitted_by');
    t.timestamp('submitted_at', { useTz: true });
    t.text('approved_by');
    t.timestamp('approved_at', { useTz: true });
    t.text('motivo_respingimento');
    t.text('closed_by');
    t.timestamp('closed_at', { useTz: true });
    t.text('nota_chiusura');
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_edd']);
    t.unique(['workflow_id']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table edd_casi
    add constraint edd_casi_stato check (stato in ('open', 'pending_supervisor', 'approved', 'closed')),
    add constraint edd_casi_cod_edd check (cod_edd ~ '^EDD-[0-9]{6,}$'),
    add constraint edd_casi_motivi check (jsonb_typeof(motivi) = 'array' and jsonb_array_length(motivi) > 0),
    add constraint edd_casi_submitted check (stato = 'open' or (submitted_by is not null and submitted_at is not null)),
    add constraint edd_casi_approved check (stato not in ('approved', 'closed') or (approved_by is not null and approved_at is not null)),
    add constraint edd_casi_four_eyes check (approved_by is null or approved_by <> submitted_by),
    add constraint edd_casi_closed check ((stato = 'closed') = (closed_at is not null))`);
  await knex.raw('create index edd_casi_list on edd_casi (cod_azienda, created_at desc, id)');
  await knex.raw('create index edd_casi_stato on edd_casi (cod_azienda, stato, created_at desc, id)');
  await knex.raw('create index edd_casi_anagrafe on edd_casi (cod_azienda, cod_anagrafe, created_at desc)');
  await knex.raw('create index edd_casi_cdd on edd_casi (cod_azienda, cdd_pratica_id) where cdd_pratica_id is not null');
  await enableTenantRls(knex, 'edd_casi');

  await knex.schema.createTable('edd_step', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('edd_id').notNullable().references('edd_casi.id');
    t.integer('ordine').notNullable();
    t.text('tipo').notNullable();
    t.text('titolo').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.uuid('assegnatario');
    t.date('scadenza');
    t.text('stato').notNullable().defaultTo('aperto');
    t.text('esito');
    t.text('riferimento_evidenza');
    t.text('completed_by');
    t.timestamp('completed_at', { useTz: true });
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['edd_id', 'ordine']);
    t.foreign('assegnatario').references('utenti.cod_utente');
  });
  await knex.raw(`alter table edd_step
    add constraint edd_step_tipo check (tipo in ('origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'informazioni_cliente',
      'informazioni_titolari', 'scopo_natura_rapporto', 'monitoraggio_rafforzato', 'altro')),
    add constraint edd_step_stato check (stato in ('aperto', 'completato')),
    add constraint edd_step_ordine check (ordine > 0),
    add constraint edd_step_titolo check (length(btrim(titolo)) > 0),
    add constraint edd_step_completato check ((stato = 'completato') = (completed_at is not null and completed_by is not null and esito is not null))`);
  await knex.raw('create index edd_step_caso on edd_step (cod_azienda, edd_id, ordine)');
  await knex.raw("create index edd_step_assegnatario on edd_step (cod_azienda, assegnatario, scadenza) where stato = 'aperto'");
  await enableTenantRls(knex, 'edd_step');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'edd_step');
  await knex.schema.dropTable('edd_step');
  await disableTenantRls(knex, 'edd_casi');
  await knex.schema.dropTable('edd_casi');
}
