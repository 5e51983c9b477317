import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Monitoring alerts (docs/monitoring.md, "Decisions and alerts"): a table process, the machine in
 * workflows/monitoring-alert/. KYT alerts (origine 'kyt') live here too, under their own machine.
 *
 * - monitoring_alert: one row per alert, deduplicated per customer, rule and window by
 *   raiseAlerts (chiave_dedup names the customer, rule and relationship; the overlap is checked
 *   under an advisory lock on it). The human code comes from a sequence shared by every tenant,
 *   so parallel evaluations never queue on a per-tenant counter: codes are unique and increasing,
 *   not gap-free within a tenant.
 * - monitoring_alert_riscontri: every hit an alert absorbed, by the hit's own key (unique per
 *   tenant): the same hit sent twice changes nothing.
 * - monitoring_alert_movimenti: the operations behind an alert. No foreign key into the
 *   partitioned movimenti (a month is detached whole when its retention ends); the date names the
 *   one partition that holds the movement.
 *
 * Soft delete (deleted_at) hides an alert from every list: the indexes below are partial on it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence monitoring_alert_numero');
  await knex.schema.createTable('monitoring_alert', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.bigInteger('numero').notNullable().defaultTo(knex.raw("nextval('monitoring_alert_numero')"));
    t.text('cod_anagrafe').notNullable();
    t.text('cod_rapporto');
    t.text('cod_regola');
    t.integer('versione');
    t.uuid('versione_id').references('monitoring_regole_versioni.id');
    t.text('tipologia').notNullable();
    t.text('origine').notNullable();
    t.text('stato').notNullable().defaultTo('new');
    t.text('disposizione');
    t.integer('punteggio').notNullable();
    t.timestamp('data_rilevazione', { useTz: true }).notNullable();
    t.date('finestra_da').notNullable();
    t.date('finestra_a').notNullable();
    t.timestamp('ultimo_riscontro', { useTz: true }).notNullable();
    t.integer('riscontri').notNullable().defaultTo(1);
    t.text('chiave_dedup').notNullable();
    t.text('cod_decisione');
    t.jsonb('evidenza').notNullable().defaultTo('{}');
    t.text('raised_by').notNullable();
    t.uuid('assegnatario').references('utenti.cod_utente');
    t.text('assigned_by');
    t.timestamp('assigned_at', { useTz: true });
    t.uuid('cod_caso');
    t.text('escalated_by');
    t.timestamp('escalated_at', { useTz: true });
    t.text('motivazione');
    // A dismissal under four-eyes: who proposed it and the disposition proposed.
    t.text('chiusura_richiesta_da');
    t.timestamp('chiusura_richiesta_at', { useTz: true });
    t.text('closed_by');
    t.timestamp('closed_at', { useTz: true });
    t.boolean('sos_suggerita').notNullable().defaultTo(false);
    t.timestamp('deleted_at', { useTz: true });
    t.text('deleted_by');
    t.text('motivo_eliminazione');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.foreign(['cod_azienda', 'cod_rapporto']).references(['cod_azienda', 'cod_rapporto']).inTable('rapporti');
    t.foreign(['cod_azienda', 'cod_regola']).references(['cod_azienda', 'cod_regola']).inTable('monitoring_regole');
  });
  await knex.raw(`alter table monitoring_alert
    add column cod_alert text generated always as ('ALR-' || lpad(numero::text, greatest(7, length(numero::text)), '0')) stored,
    add constraint monitoring_alert_stato check (stato in ('new', 'assigned', 'closing', 'escalated', 'closed')),
    add constraint monitoring_alert_origine check (origine in ('tempo_reale', 'giornaliero', 'replay', 'manuale', 'kyt')),
    add constraint monitoring_alert_disposizione check (disposizione in ('falso_positivo', 'giustificato', 'sospetto')),
    add constraint monitoring_alert_tipologia check (tipologia ~ '^[a-z][a-z0-9_]{1,62}$'),
    add constraint monitoring_alert_punteggio check (punteggio between 0 and 100),
    add constraint monitoring_alert_finestra check (finestra_da <= finestra_a),
    add constraint monitoring_alert_riscontri check (riscontri >= 1),
    add constraint monitoring_alert_regola check ((cod_regola is null) = (versione is null) and (cod_regola is null) = (versione_id is null)),
    add constraint monitoring_alert_regola_o_manuale check (cod_regola is not null or origine = 'manuale'),
    add constraint monitoring_alert_evidenza check (jsonb_typeof(evidenza) = 'object'),
    add constraint monitoring_alert_chiuso check ((stato = 'closed') = (closed_at is not null and closed_by is not null and disposizione is not null)),
    add constraint monitoring_alert_in_chiusura check (stato <> 'closing' or (chiusura_richiesta_da is not null and disposizione is not null)),
    add constraint monitoring_alert_escalato check ((stato = 'escalated') = (cod_caso is not null and escalated_at is not null)),
    add constraint monitoring_alert_quattro_occhi check (chiusura_richiesta_da is null or closed_by is null or closed_by <> chiusura_richiesta_da),
    add constraint monitoring_alert_sos check (not sos_suggerita or disposizione = 'sospetto'),
    add constraint monitoring_alert_eliminato check ((deleted_at is null) = (deleted_by is null) and (deleted_at is null) = (motivo_eliminazione is null))`);
  await knex.raw('create unique index monitoring_alert_codice on monitoring_alert (cod_azienda, cod_alert)');
  // The alerts list (docs/lists.md): one index per sort and one per equality filter followed by the default sort.
  const live = 'where deleted_at is null';
  await knex.raw(`create index monitoring_alert_rilevazione on monitoring_alert (cod_azienda, data_rilevazione, id) ${live}`);
  await knex.raw(`create index monitoring_alert_punteggio_idx on monitoring_alert (cod_azienda, punteggio, id) ${live}`);
  await knex.raw(`create index monitoring_alert_ultimo on monitoring_alert (cod_azienda, ultimo_riscontro, id) ${live}`);
  for (const col of ['stato', 'tipologia', 'cod_regola', 'cod_anagrafe', 'assegnatario', 'origine']) {
    await knex.raw(`create index monitoring_alert_${col}_idx on monitoring_alert (cod_azienda, ${col}, data_rilevazione, id) ${live}`);
  }
  // The open alerts (new, assigned, waiting for a second person): the list's `aperti` filter and the home's tiles.
  await knex.raw(`create index monitoring_alert_aperti on monitoring_alert (cod_azienda, data_rilevazione, id) ${live} and stato in ('new', 'assigned', 'closing')`);
  await knex.raw(`create index monitoring_alert_assegnati_aperti on monitoring_alert (cod_azienda, assegnatario, data_rilevazione, id) ${live} and stato in ('new', 'assigned', 'closing')`);
  // raiseAlerts: the alerts of one customer and rule whose window could overlap a hit's.
  await knex.raw(`create index monitoring_alert_dedup on monitoring_alert (cod_azienda, chiave_dedup, finestra_a) ${live}`);
  await knex.raw('create index monitoring_alert_decisione on monitoring_alert (cod_azienda, cod_decisione) where cod_decisione is not null');
  await knex.raw('create index monitoring_alert_caso on monitoring_alert (cod_azienda, cod_caso) where cod_caso is not null');
  await enableTenantRls(knex, 'monitoring_alert');

  await knex.schema.createTable('monitoring_alert_riscontri', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('chiave').notNullable();
    t.uuid('alert_id').notNullable().references('monitoring_alert.id');
    t.text('origine').notNullable();
    t.integer('versione');
    t.integer('punteggio').notNullable();
    t.timestamp('data_rilevazione', { useTz: true }).notNullable();
    t.date('finestra_da').notNullable();
    t.date('finestra_a').notNullable();
    t.text('cod_decisione');
    t.jsonb('evidenza').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'chiave']);
  });
  await knex.raw(`alter table monitoring_alert_riscontri
    add constraint monitoring_alert_riscontri_chiave check (char_length(chiave) between 1 and 300),
    add constraint monitoring_alert_riscontri_finestra check (finestra_da <= finestra_a)`);
  await knex.raw('create index monitoring_alert_riscontri_alert on monitoring_alert_riscontri (alert_id, data_rilevazione)');
  await enableTenantRls(knex, 'monitoring_alert_riscontri');

  await knex.schema.createTable('monitoring_alert_movimenti', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('alert_id').notNullable().references('monitoring_alert.id');
    t.uuid('movimento_id').notNullable();
    t.date('data_operazione').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['alert_id', 'movimento_id']);
  });
  // A movement's page lists the alerts it is behind.
  await knex.raw('create index monitoring_alert_movimenti_movimento on monitoring_alert_movimenti (cod_azienda, movimento_id)');
  await enableTenantRls(knex, 'monitoring_alert_movimenti');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['monitoring_alert_movimenti', 'monitoring_alert_riscontri', 'monitoring_alert']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
  await knex.raw('drop sequence monitoring_alert_numero');
}
