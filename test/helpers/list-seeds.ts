import type { Knex } from 'knex';

/**
 * Seeds for the query-plan test, one per list of the registry (by list name): many rows in the
 * tenant the test reads (BIG_TENANT) and more in other tenants, so the planner faces the shapes
 * of production (a large table, one tenant a fraction of it). Rows are written by the owner with
 * generate_series; the values spread over the filters' and sorts' columns.
 */
export const BIG_TENANT = 'SEED1';
export const OTHER_TENANTS = ['SEED2', 'SEED3'];
/** Rows of the tenant the test reads; each other tenant holds more, so the tenant is a minority of the table as in production. */
export const BIG_ROWS = 20_000;
const OTHER_ROWS = 20_000;
/** The user whose notifications are listed (the notifications list's `cod_utente` sample). */
export const SEED_USER = '00000000-0000-4000-8000-000000000001';

type Seed = (owner: Knex) => Promise<void>;

/** Runs `sql` once per tenant with :tenant and :n (row count) bound. */
const perTenant = (sql: string): Seed => async (owner) => {
  for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
    await owner.raw(sql, { tenant, n });
  }
};

/** The tenants themselves and one user each (the notifications' recipients). */
export async function seedTenants(owner: Knex): Promise<void> {
  for (const t of [BIG_TENANT, ...OTHER_TENANTS]) {
    await owner('aziende').insert({ cod_azienda: t, ragione_sociale: `Seed ${t}` });
  }
  await owner.raw(`insert into utenti (cod_utente, cod_azienda, username, email, nome, cognome, password_hash, ruoli)
    select case when t = :big then cast(:user as uuid) else gen_random_uuid() end, t, 'seed-user-' || t, 'seed-' || t || '@example.test', 'Seed', 'User', 'x', '{analyst}'
    from unnest(cast(:tenants as text[])) t`, { big: BIG_TENANT, user: SEED_USER, tenants: [BIG_TENANT, ...OTHER_TENANTS] });
}

/**
 * Movements: per tenant a customer and a relationship for every 20 movements, the movements spread
 * over every month the migration partitioned (January two years back to a year ahead: an empty
 * partition would be planned as a cheap sequential scan), 4% cash, amounts from 1 to 10,000.
 */
const movementsSeed: Seed = async (owner) => {
  const span = `(date_trunc('year', current_date) - interval '2 years')::date`;
  const days = `((date_trunc('month', current_date) + interval '13 months')::date - ${span})`;
  for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
    await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
      select :tenant, 'MOVANA-' || lpad(i::text, 5, '0'), 'persona_fisica', 'Cliente ' || i, 'seed' from generate_series(1, :n / 20) i`, { tenant, n });
    await owner.raw(`insert into rapporti (cod_azienda, cod_rapporto, cod_anagrafe, tipo, data_apertura, created_by)
      select :tenant, 'MOVRAP-' || lpad(i::text, 5, '0'), 'MOVANA-' || lpad(i::text, 5, '0'), 'conto_corrente', date '2020-01-01', 'seed' from generate_series(1, :n / 20) i`, { tenant, n });
    // 2% executed by another customer (a delegate, a third party at the counter), at a time of day.
    await owner.raw(`insert into movimenti (id, cod_azienda, cod_rapporto, cod_anagrafe, data_operazione, importo, importo_eur, segno, contanti, causale, chiave_esterna,
        cod_anagrafe_esecutore, ora_operazione, created_by)
      select gen_random_uuid(), :tenant, 'MOVRAP-' || lpad((1 + i % (:n / 20))::text, 5, '0'), 'MOVANA-' || lpad((1 + i % (:n / 20))::text, 5, '0'),
        ${span} + (i % ${days}), 1 + (i * 7919 % 1000000) / 100.0, 1 + (i * 7919 % 1000000) / 100.0,
        (array['entrata','uscita'])[1 + i % 2], i % 25 = 0, 'Bonifico', 'seed-' || i,
        case when i % 50 = 0 then 'MOVANA-' || lpad((1 + (i * 7) % (:n / 20))::text, 5, '0') end, time '08:00' + (i % 600) * interval '1 minute', 'seed'
      from generate_series(1, :n) i`, { tenant, n });
  }
};

/**
 * The CDD lists' customers (CDDSEED-1...), written once per database for both CDD seeds: each
 * writing them with "on conflict do nothing" made the second wait on the first's rows, and wrote
 * the table's indexes twice.
 */
const cddCustomersSeeded = new WeakMap<Knex, Promise<void>>();
const seedCddCustomers: Seed = (owner) => {
  if (!cddCustomersSeeded.has(owner)) {
    cddCustomersSeeded.set(owner, perTenant(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
      select :tenant, 'CDDSEED-' || i, 'persona_fisica', 'Cliente ' || md5(i::text), 'seed' from generate_series(1, :n) i`)(owner));
  }
  return cddCustomersSeeded.get(owner)!;
};

export const LIST_SEEDS: Record<string, Seed> = {
  cdd_tasks: async (owner) => { await seedCddCustomers(owner); await perTenant(`
    insert into cdd_pratiche (id, cod_azienda, cod_pratica, cod_anagrafe, livello, motivo, stato, due_at, created_by, workflow_id, created_at, updated_at, assegnatario,
      motivazione_astensione, motivo_eliminazione)
    select gen_random_uuid(), :tenant, 'CDD-' || lpad(i::text, 6, '0'), 'CDDSEED-' || i,
      (array['semplificata','ordinaria','rafforzata'])[1 + i % 3],
      (array['manuale','onboarding','revisione_periodica','nuovo_match_screening','cambio_classe_rischio','documento_in_scadenza'])[1 + i % 6],
      (array['open','in_progress','pending_review','completed','abstained','deleted'])[1 + i % 6], now() + ((i % 90) - 30) * interval '1 day',
      'seed', 'cdd-task:' || :tenant || ':' || i, now() - i * interval '1 minute', now(),
      case when i % 20 = 0 then (select cod_utente from utenti where username = 'seed-user-' || :tenant) end,
      'Motivazione ' || i, 'Motivo ' || i
    from generate_series(1, :n) i`)(owner); },

  cdd_reviews: async (owner) => { await seedCddCustomers(owner); await perTenant(`
    insert into cdd_reviews (id, cod_azienda, cod_anagrafe, motivo, classe_rischio, due_at, stato, workflow_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, 'CDDSEED-' || i, 'prima_revisione', (array['basso','medio','medio_alto','alto'])[1 + i % 4],
      now() + ((i % 2000) - 100) * interval '1 day', (array['programmata','programmata','programmata','scaduta','annullata'])[1 + i % 5],
      'cdd-review:' || :tenant || ':' || i, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i`)(owner); },

  cases: perTenant(`insert into cases (id, cod_azienda, titolo, descrizione, tipo, priorita, stato, opened_by, sla_days, sla_due_at, overdue, workflow_id, created_at, updated_at, assegnatario)
    select gen_random_uuid(), :tenant, 'Caso ' || i, 'Descrizione del caso ' || md5(i::text), 'indagine',
      (array['bassa','media','alta','critica'])[1 + i % 4], (array['open','escalated','closing','closed'])[1 + i % 4], 'seed', 30,
      now() + (i % 60) * interval '1 day', i % 10 = 0, 'case:' || :tenant || ':' || i, now() - i * interval '1 minute', now(),
      case when i % 20 = 0 then (select cod_utente from utenti where username = 'seed-user-' || :tenant) end
    from generate_series(1, :n) i`),

  'admin.aziende': async (owner) => {
    await owner.raw(`insert into aziende (cod_azienda, ragione_sociale, partita_iva, attiva, created_at)
      select 'AZ' || lpad(i::text, 6, '0'), 'Azienda ' || md5(i::text), lpad(i::text, 11, '0'), i % 20 <> 0, now() - i * interval '1 hour'
      from generate_series(1, :n) i`, { n: BIG_ROWS + 2 * OTHER_ROWS });
  },

  'admin.utenti': perTenant(`insert into utenti (cod_utente, cod_azienda, username, email, nome, cognome, password_hash, ruoli, attivo, last_login_at, created_at)
    select gen_random_uuid(), :tenant, lower(:tenant) || '-u' || i, lower(:tenant) || '-u' || i || '@example.test', 'Nome' || i, 'Cognome' || md5(i::text), 'x',
      array[(array['analyst','co','auditor','admin'])[1 + i % 4]], i % 10 <> 0, case when i % 3 = 0 then null else now() - i * interval '1 minute' end,
      now() - i * interval '1 minute'
    from generate_series(1, :n) i`),

  'screening.matches': perTenant(`with s as (
      insert into screening_subjects (id, cod_azienda, tipo, nome)
      select gen_random_uuid(), :tenant, 'person', 'Soggetto ' || md5(i::text) from generate_series(1, :n / 10) i returning id
    ), subjects as (select id, row_number() over () as r from s)
    insert into screening_matches (id, cod_azienda, subject_id, list_name, entry_id, entry_hash, score, stato, created_at, updated_at, assegnatario, resolution_requested_by)
    select gen_random_uuid(), :tenant, subjects.id, (array['EU','UN','OFAC'])[1 + i % 3], 'e' || i, 'h', (i % 100) / 100.0,
      (array['open','assigned','true_match','false_positive'])[1 + i % 4], now() - (i / 10) * interval '1 minute', now(),
      case when i % 4 = 1 then (select cod_utente from utenti where username = 'seed-user-' || :tenant) end,
      case when i % 40 = 1 then (select cod_utente::text from utenti where username = 'seed-user-' || :tenant) end
    from generate_series(1, :n) i join subjects on subjects.r = 1 + i % (:n / 10)`),

  'screening.import_runs': async (owner) => {
    await owner.raw(`insert into screening_import_runs (id, workflow_id, trigger, status, started_at)
      select gen_random_uuid(), 'import:' || i, 'schedule', 'completed', now() - i * interval '1 hour' from generate_series(1, :n) i`, { n: BIG_ROWS + 2 * OTHER_ROWS });
  },

  'audit.events': perTenant(`insert into audit_events (cod_azienda, seq, occurred_at, actor, action, entity_type, entity_id, data, prev_hash, hash)
    select :tenant, case when i > :n - 50 then null else i end, timestamptz '2026-01-01' + i * interval '1 minute', 'seed-actor-' || (i % 10),
      (array['case.opened','case.closed','login','match.resolved'])[1 + i % 4], (array['case','utente','screening_match'])[1 + i % 3],
      'seed-entity-' || (i % 1000), '{}', case when i > :n - 50 then null else 'p' end, case when i > :n - 50 then null else 'h' end
    from generate_series(1, :n) i`),

  notifications: perTenant(`insert into notifications (id, cod_azienda, cod_utente, tipo, titolo, messaggio, read_at, created_at)
    select gen_random_uuid(), :tenant, (select cod_utente from utenti where username = 'seed-user-' || :tenant), 'info', 'Notifica ' || i, '',
      case when i % 5 = 0 then null else now() end, now() - i * interval '1 minute'
    from generate_series(1, :n) i`),

  'outbox.messages': perTenant(`insert into outbox_messages (id, cod_azienda, kind, recipient, subject, status, body_sealed, dedup_key, message_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, (array['otp','resume','info_request','reminder','outcome','notification'])[1 + i % 6],
      'r' || md5(i::text) || '@example.test', 'Oggetto ' || i, case when i % 50 = 0 then 'failed' when i % 7 = 0 then 'pending' else 'sent' end,
      'x', 'd' || i, 'm' || i || '@' || :tenant, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i`),

  'onboarding.cases': perTenant(`insert into onboarding_cases (id, cod_azienda, stato, tipo_soggetto, email, anagrafe, risk_score, risk_classe, submitted_at, workflow_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, (array['draft','submitted','in_review','approved','rejected'])[1 + i % 5],
      (array['persona_fisica','ditta_individuale','societa'])[1 + i % 3], 'c' || i || '@example.test',
      jsonb_build_object('nome', 'Nome' || i, 'cognome', 'Cognome' || md5(i::text)),
      case when i % 5 = 0 then null else i % 100 end, case when i % 5 = 0 then null else (array['basso','medio','alto'])[1 + i % 3] end,
      case when i % 5 = 0 then null else now() - i * interval '1 minute' end, 'onboarding:' || :tenant || ':' || i,
      timestamptz '2026-01-01' + i * interval '1 minute', now()
    from generate_series(1, :n) i`),

  movements: movementsSeed,
  // One customer for every ten cases (own codes, so no other seed's customers collide), the reasons spread over the motives.
  edd: perTenant(`with c as (
      insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, pep, classe_rischio, created_by)
      select :tenant, 'EDDSEED-' || lpad(i::text, 6, '0'), 'persona_fisica', 'Cliente ' || md5(i::text), i % 3 = 0, 'alto', 'seed'
      from generate_series(1, :n / 10) i returning cod_anagrafe
    )
    insert into edd_casi (id, cod_azienda, cod_edd, cod_anagrafe, motivi, stato, opened_by, submitted_by, submitted_at, approved_by, approved_at, closed_at, workflow_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, 'EDD-' || lpad(i::text, 6, '0'), 'EDDSEED-' || lpad((1 + i % (:n / 10))::text, 6, '0'),
      jsonb_build_array((array['pep','paese_alto_rischio','classe_rischio_alta','operativita_anomala','altro'])[1 + i % 5]),
      (array['open','pending_supervisor','approved','closed'])[1 + i % 4], 'seed',
      case when i % 4 = 0 then null else 'seed-a' end, case when i % 4 = 0 then null else now() end,
      case when i % 4 >= 2 then 'seed-b' end, case when i % 4 >= 2 then now() end, case when i % 4 = 3 then now() end,
      'edd:' || :tenant || ':' || i, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i, (select count(*) from c) ensure_customers_first`),
  // part ASSESS: assessments of the seeded customers, spread over states, classes and reasons (a retired rule set of their own).
  'risk-assessments': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`with v as (
        insert into rischio_versioni (id, cod_azienda, versione, stato, descrizione, created_by, activated_by, activated_at, retired_at)
        values (gen_random_uuid(), :tenant, 900, 'retired', 'seed', 'seed', 'seed', now(), now()) returning id
      )
      insert into rischio_valutazioni (id, cod_azienda, cod_valutazione, cod_anagrafe, stato, motivo, versione_id, punteggio, classe_calcolata, classe_effettiva,
        override_classe, override_motivo, override_by, override_at, released_by, released_at, archived_by, archived_at, workflow_id, created_by, created_at, updated_at)
      select gen_random_uuid(), :tenant, 'VAL-' || lpad(i::text, 6, '0'), 'ANA-' || lpad((1 + i % :n)::text, 6, '0'), st,
        (array['manuale','evento_screening','evento_anagrafe','evento_cdd','portafoglio'])[1 + i % 5], v.id, i % 60,
        (array['basso','medio','medio_alto','alto'])[1 + i % 4], case when st in ('released','archived') then (array['basso','medio','medio_alto','alto'])[1 + i % 4] end,
        case when st = 'override_pending' then 'alto' end, case when st = 'override_pending' then 'seed' end,
        case when st = 'override_pending' then 'seed-a' end, case when st = 'override_pending' then now() end,
        case when st in ('released','archived') then 'system' end, case when st in ('released','archived') then now() end,
        case when st = 'archived' then 'system' end, case when st = 'archived' then now() end,
        'risk-assessment:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute', now()
      from v, generate_series(1, :n) i, lateral (select (array['completed','override_pending','released','archived','archived','archived'])[1 + i % 6] as st) s`)(owner);
  },
  imports: perTenant(`insert into import_jobs (id, cod_azienda, tipo, formato, nome_file, sha256, dimensione, stato, workflow_id, created_by, created_at)
    select gen_random_uuid(), :tenant, (array['clienti','rapporti','movimenti'])[1 + i % 3], 'csv', 'file-' || i || '.csv', md5(i::text) || md5(i::text), 1000 + i,
      (array['in_coda','in_corso','completato','fallito'])[1 + i % 4], 'import:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute'
    from generate_series(1, :n) i`),
  // Travel rule (verifications part 5): transfers in every state, both directions and wallet types; no customer (own codes collide with nothing).
  'travel-rule': perTenant(`insert into travel_rule_transazioni (id, cod_azienda, cod_transazione, direzione, asset, importo, importo_eur, indirizzo_beneficiario,
      tipo_wallet, ivms101, stato, screened_at, decisione, motivo, decided_by, decided_at, riferimento_esterno, workflow_id, created_by, created_at, updated_at)
    select gen_random_uuid(), :tenant, 'TRR-' || lpad(i::text, 6, '0'), (array['in_uscita','in_entrata'])[1 + i % 2], (array['BTC','ETH','USDC'])[1 + i % 3],
      (i % 1000) / 100.0 + 0.01, i % 5000, '0x' || md5(i::text), (array['vasp','vasp','self_hosted'])[1 + i % 3], '{}'::jsonb, st,
      case when st <> 'received' then now() end, case when st not in ('received','screened') then st end,
      case when st not in ('received','screened') then 'seed' end, case when st not in ('received','screened') then 'seed' end,
      case when st not in ('received','screened') then now() end, 'SEED-' || i, 'travel-rule:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute', now()
    from generate_series(1, :n) i, lateral (select (array['received','screened','approved','rejected','returned','held'])[1 + i % 6] as st) s`),
};

/**
 * The records area's subjects (anagrafe), seeded once per database: the lists of relationships,
 * links, owners and documents point at them (foreign keys), so their seeds wait for this one.
 * Subjects 1..n of each tenant are ANA-000001...; every third is a company.
 */
const customersSeeded = new WeakMap<Knex, Promise<void>>();
export const seedCustomers: Seed = (owner) => {
  if (!customersSeeded.has(owner)) {
    customersSeeded.set(owner, perTenant(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, nome, cognome, codice_fiscale,
        paese_residenza, nazionalita, pep, classe_rischio, stato, codice_esterno, created_by, created_at, updated_at)
      select :tenant, 'ANA-' || lpad(i::text, 6, '0'), case when i % 3 = 0 then 'societa' else 'persona_fisica' end,
        case when i % 3 = 0 then 'Societa ' || md5(i::text) else 'Cognome' || md5(i::text) || ' Nome' || i end,
        case when i % 3 = 0 then null else 'Nome' || i end, case when i % 3 = 0 then null else 'Cognome' || md5(i::text) end,
        upper(substr(md5(i::text), 1, 16)), (array['IT','IT','IT','DE','FR','CH'])[1 + i % 6], 'IT', i % 50 = 0,
        (array['basso','medio','medio_alto','alto'])[1 + i % 4], case when i % 40 = 0 then 'sospeso' else 'attivo' end,
        case when i % 2 = 0 then 'EST-' || lpad(i::text, 6, '0') end, 'seed', now() - i * interval '1 minute', now()
      from generate_series(1, :n) i`)(owner));
  }
  return customersSeeded.get(owner)!;
};

Object.assign(LIST_SEEDS, {
  'records.anagrafe': seedCustomers,

  'records.rapporti': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into rapporti (cod_azienda, cod_rapporto, cod_anagrafe, tipo, stato, data_apertura, data_chiusura, created_by, created_at, updated_at)
      select :tenant, 'RAP-' || lpad(i::text, 6, '0'), 'ANA-' || lpad((1 + i % :n)::text, 6, '0'),
        case when i % 10 = 0 then 'operazione_occasionale' else 'rapporto_continuativo' end,
        case when i % 8 = 0 then 'chiuso' else 'attivo' end, date '2020-01-01' + (i % 2000), case when i % 8 = 0 then date '2026-01-01' end,
        'seed', now() - i * interval '1 minute', now()
      from generate_series(1, :n) i`)(owner);
    await perTenant(`insert into rapporti_soggetti (id, cod_azienda, cod_rapporto, cod_anagrafe, ruolo, dal, fonte, created_by)
      select gen_random_uuid(), r.cod_azienda, r.cod_rapporto, r.cod_anagrafe, 'intestatario', r.data_apertura, 'manuale', 'seed'
      from rapporti r where r.cod_azienda = :tenant`)(owner);
  },

  'records.documenti': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into documenti (id, cod_azienda, cod_documento, cod_anagrafe, tipo, numero, data_rilascio, data_scadenza, stato, created_by, created_at, updated_at)
      select gen_random_uuid(), :tenant, 'DOC-' || lpad(i::text, 6, '0'), 'ANA-' || lpad((1 + i % :n)::text, 6, '0'), (array['carta_identita','passaporto','patente','visura_camerale'])[1 + i % 4],
        'N' || i, date '2020-01-01' + (i % 1000), case when i % 4 = 3 then null else date '2025-01-01' + (i % 3000) end,
        case when i % 9 = 0 then 'scaduto' else 'valido' end, 'seed', now() - i * interval '1 minute', now()
      from generate_series(1, :n) i`)(owner);
  },

  // Document records (issue 13, docs): the same table as records.documenti, codes DOC-9xxxxxx and numbers VD... of their own;
  // a third verified valid, a sixth not valid (the verified ones with who and when, as the table's check wants).
  'verifications.documenti': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into documenti (id, cod_azienda, cod_documento, versione, cod_anagrafe, tipo, numero, data_rilascio, data_scadenza, stato,
        esito_verifica, verificato_by, verificato_at, sha256, nome_file, mime, dimensione, created_by, created_at, updated_at)
      select gen_random_uuid(), :tenant, 'DOC-9' || lpad(i::text, 6, '0'), 1 + i % 3, 'ANA-' || lpad((1 + i % :n)::text, 6, '0'),
        (array['carta_identita','passaporto','patente','statuto'])[1 + i % 4], 'VD' || i, date '2020-01-01' + (i % 1000),
        case when i % 4 = 3 then null else date '2025-01-01' + (i % 3000) end, case when i % 9 = 0 then 'scaduto' else 'valido' end,
        case when i % 6 = 0 then 'non_valido' when i % 3 = 0 then 'valido' else 'da_verificare' end,
        case when i % 3 = 0 then 'seed' end, case when i % 3 = 0 then now() end,
        md5(i::text) || md5(:tenant || i::text), 'documento-' || i || '.pdf', 'application/pdf', 1000 + i, 'seed', now() - i * interval '1 minute', now()
      from generate_series(1, :n) i`)(owner);
  },

  // Links and owners share a table: each seed writes its own kind (both lists then face both).
  'records.legami': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into legami (id, cod_azienda, cod_anagrafe_da, cod_anagrafe_a, tipo, fonte, created_by, created_at)
      select gen_random_uuid(), :tenant, 'ANA-' || lpad((1 + i % :n)::text, 6, '0'), 'ANA-' || lpad((1 + (i + 1) % :n)::text, 6, '0'),
        (array['legale_rappresentante','amministratore','socio','familiare'])[1 + i % 4], 'manuale', 'seed', now() - i * interval '1 minute'
      from generate_series(1, :n) i`)(owner);
  },

  'records.ubo': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into legami (id, cod_azienda, cod_anagrafe_da, cod_anagrafe_a, tipo, percentuale, tipo_controllo, fonte, created_by, created_at)
      select gen_random_uuid(), :tenant, 'ANA-' || lpad((1 + i % :n)::text, 6, '0'), 'ANA-' || lpad((1 + (i + 2) % :n)::text, 6, '0'),
        'titolare_effettivo', 25 + i % 50, 'proprieta_diretta', 'import', 'seed', now() - i * interval '1 minute'
      from generate_series(1, :n / 4) i`)(owner);
  },

  // views: the current scores of every customer, spread over the 16 cells of the matrix (a retired
  // rule set of its own, so another seed's active or draft version never collides with it).
  'risk.matrix_cell': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`with v as (
        insert into rischio_versioni (id, cod_azienda, versione, stato, created_by, activated_by, activated_at, retired_at, retired_by)
        values (gen_random_uuid(), :tenant, 903, 'retired', 'seed', 'seed', now() - interval '1 year', now(), 'seed') returning id
      )
      insert into rischio_correnti (cod_azienda, cod_anagrafe, versione_id, punteggio, classe_calcolata, classe_effettiva, probabilita, impatto, calcolato_at)
      select :tenant, 'ANA-' || lpad(i::text, 6, '0'), v.id, i % 80, (array['basso','medio','medio_alto','alto'])[1 + i % 4],
        (array['basso','medio','medio_alto','alto'])[1 + i % 4], 1 + i % 4, 1 + (i / 4) % 4, now() - i * interval '1 minute'
      from generate_series(1, :n) i, v`)(owner);
  },
} satisfies Record<string, Seed>);

// Risk portfolio runs (part BATCH): runs and one run's results per tenant, on a retired version of their own.
const riskRunVersion = (versione: number) => perTenant(`insert into rischio_versioni (id, cod_azienda, versione, stato, descrizione, created_by, activated_by, activated_at, retired_at)
  values (md5(:tenant || '-${versione}')::uuid, :tenant, ${versione}, 'retired', 'seed', 'seed', 'seed', now(), now())`);
Object.assign(LIST_SEEDS, {
  risk_runs: async (owner: Knex) => {
    await riskRunVersion(901)(owner);
    await perTenant(`insert into rischio_esecuzioni (id, cod_azienda, tipo, versione_id, stato, totale, elaborati, cambi, workflow_id, started_by, started_at, finished_at)
      select gen_random_uuid(), :tenant, (array['ricalcolo','simulazione'])[1 + i % 2], md5(:tenant || '-901')::uuid, (array['completed','failed','cancelled'])[1 + i % 3],
        1000, 1000, i % 100, 'risk-run:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '30 seconds'
      from generate_series(1, :n / 10) i`)(owner);
  },
  risk_run_results: async (owner: Knex) => {
    await seedCustomers(owner);
    await riskRunVersion(902)(owner);
    // The sample run (the filter's sample id) in the tenant the test reads; another run in each tenant.
    await perTenant(`insert into rischio_esecuzioni (id, cod_azienda, tipo, versione_id, stato, workflow_id, started_by, finished_at)
      select case when :tenant = '${BIG_TENANT}' and k = 1 then '00000000-0000-4000-8000-00000000e5e1'::uuid else gen_random_uuid() end, :tenant, 'simulazione',
        md5(:tenant || '-902')::uuid, 'completed', 'risk-run-results:' || :tenant || ':' || k, 'seed', now()
      from generate_series(1, 2) k`)(owner);
    await perTenant(`insert into rischio_esecuzioni_risultati (esecuzione_id, cod_azienda, cod_anagrafe, punteggio, classe, punteggio_attuale, classe_attuale, cambia, differenze)
      select e.id, :tenant, 'ANA-' || lpad(i::text, 6, '0'), i % 60, (array['basso','medio','medio_alto','alto'])[1 + i % 4], (i + 7) % 60,
        case when i % 13 = 0 then null else (array['basso','medio','medio_alto','alto'])[1 + (i / 4) % 4] end, i % 5 = 0, '[]'
      from rischio_esecuzioni e cross join generate_series(1, :n) i
      where e.cod_azienda = :tenant and e.workflow_id like 'risk-run-results:%'`)(owner);
  },
} satisfies Record<string, Seed>);

// Issue 13, part kyc: one verification per seeded customer (the open ones one per customer and kind, as the unique index wants),
// half KYC and half KYB, spread over the states and origins.
Object.assign(LIST_SEEDS, {
  verifiche: perTenant(`with c as (
      insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
      select :tenant, 'VERANA-' || lpad(i::text, 6, '0'), case when i % 2 = 0 then 'societa' else 'persona_fisica' end, 'Cliente ' || md5(i::text), 'seed'
      from generate_series(1, :n) i returning cod_anagrafe
    )
    insert into verifiche (id, cod_azienda, cod_verifica, tipo, cod_anagrafe, stato, origine, motivo_rifiuto, decided_by, decided_at, expired_at, scade_il, workflow_id, created_by, created_at, updated_at)
    select gen_random_uuid(), :tenant, case when i % 2 = 0 then 'KYB-' else 'KYC-' end || lpad(i::text, 6, '0'), case when i % 2 = 0 then 'kyb' else 'kyc' end,
      'VERANA-' || lpad(i::text, 6, '0'), s.stato, (array['manuale','onboarding','cdd','rinnovo'])[1 + i % 4],
      case when s.stato = 'rejected' then 'Documenti non conformi' end,
      case when s.stato in ('approved', 'rejected') then 'seed' end, case when s.stato in ('approved', 'rejected') then now() end,
      case when s.stato = 'expired' then now() end, now() + interval '365 days',
      'verification:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute', now()
    from generate_series(1, :n) i
    cross join lateral (select (array['pending','in_progress','approved','rejected','expired'])[1 + i % 5] as stato) s,
    (select count(*) from c) ensure_customers_first`),
} satisfies Record<string, Seed>);

// Monitoring (issue 23): rules (a tenth with a draft only, the rest in force, some with a draft besides) and alerts spread over
// every state, origin and typology, a tenth made by hand, one in fifty deleted (never listed), over customers and rules of their own.
const MON_TIPOLOGIE = "array['fan_in','fan_out','picco_volume','importi_tondi','contanti_oltre_soglia','paesi_alto_rischio']";
Object.assign(LIST_SEEDS, {
  'monitoring.rules': perTenant(`with r as (
      insert into monitoring_regole (id, cod_azienda, cod_regola, nome, tipologia, created_by, created_at)
      select gen_random_uuid(), :tenant, 'regola_' || i, 'Regola ' || md5(i::text), (${MON_TIPOLOGIE})[1 + i % 6], 'seed', now() - i * interval '1 minute'
      from generate_series(1, :n) i returning id, cod_regola
    ), v as (select r.id, substring(r.cod_regola from 8)::int as i from r)
    insert into monitoring_regole_versioni (id, cod_azienda, regola_id, versione, stato, condizione, ambito, livello, punteggio, esito, finestra_dedup_giorni,
      created_by, updated_by, activated_by, activated_at)
    select gen_random_uuid(), :tenant, v.id, k, case when k = 2 or v.i % 10 = 0 then 'bozza' else 'attiva' end, '{"campo":"evento.contanti","op":"eq","valore":true}',
      'evento', 'cliente', 50, 'alert', 30, 'seed', 'seed', case when k = 1 and v.i % 10 <> 0 then 'seed' end, case when k = 1 and v.i % 10 <> 0 then now() end
    from v cross join generate_series(1, 2) k where k = 1 or (v.i % 3 = 0 and v.i % 10 <> 0)`),

  'monitoring.alerts': async (owner: Knex) => {
    for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
      await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
        select :tenant, 'ALRANA-' || lpad(i::text, 5, '0'), 'persona_fisica', 'Cliente ' || md5(i::text), 'seed' from generate_series(1, :n / 20) i`, { tenant, n });
      await owner.raw(`with r as (
          insert into monitoring_regole (id, cod_azienda, cod_regola, nome, tipologia, created_by)
          select gen_random_uuid(), :tenant, 'alrreg_' || k, 'Regola ' || k, (${MON_TIPOLOGIE})[1 + k % 6], 'seed' from generate_series(1, 50) k returning id
        )
        insert into monitoring_regole_versioni (id, cod_azienda, regola_id, versione, stato, condizione, ambito, livello, punteggio, esito, finestra_dedup_giorni,
          created_by, updated_by, activated_by, activated_at)
        select gen_random_uuid(), :tenant, r.id, 1, 'attiva', '{"campo":"evento.contanti","op":"eq","valore":true}', 'giornaliero', 'cliente', 60, 'alert', 30,
          'seed', 'seed', 'seed', now() from r`, { tenant });
      await owner.raw(`insert into monitoring_alert (id, cod_azienda, cod_anagrafe, cod_regola, versione, versione_id, tipologia, origine, stato, disposizione, punteggio,
          data_rilevazione, finestra_da, finestra_a, ultimo_riscontro, riscontri, chiave_dedup, raised_by, assegnatario, cod_caso, escalated_by, escalated_at,
          chiusura_richiesta_da, chiusura_richiesta_at, closed_by, closed_at, deleted_at, deleted_by, motivo_eliminazione)
        select gen_random_uuid(), :tenant, 'ALRANA-' || lpad((1 + i % (:n / 20))::text, 5, '0'),
          case when manual then null else 'alrreg_' || (1 + i % 50) end, case when manual then null else 1 end,
          case when manual then null else (select v.id from monitoring_regole_versioni v join monitoring_regole r on r.id = v.regola_id
            where r.cod_azienda = :tenant and r.cod_regola = 'alrreg_' || (1 + i % 50)) end,
          (${MON_TIPOLOGIE})[1 + i % 6], case when manual then 'manuale' else (array['tempo_reale','giornaliero','replay','kyt'])[1 + i % 4] end,
          stato, case when stato in ('closing', 'closed') then (array['falso_positivo','giustificato','sospetto'])[1 + i % 3] end, i % 101,
          timestamptz '2025-01-01' + i * interval '30 minutes', date '2025-01-01' + i / 48, date '2025-01-01' + i / 48 + 7,
          timestamptz '2025-01-01' + i * interval '30 minutes', 1 + i % 3, 'dedup-' || i, 'seed',
          case when i % 4 = 1 then (select cod_utente from utenti where username = 'seed-user-' || :tenant) end,
          case when stato = 'escalated' then gen_random_uuid() end, case when stato = 'escalated' then 'seed' end, case when stato = 'escalated' then now() end,
          case when stato = 'closing' then 'seed' end, case when stato = 'closing' then now() end,
          case when stato = 'closed' then 'seed-closer' end, case when stato = 'closed' then now() end,
          case when i % 50 = 0 then now() end, case when i % 50 = 0 then 'seed' end, case when i % 50 = 0 then 'seed' end
        from (select i, i % 10 = 0 as manual, (array['new','assigned','closing','escalated','closed'])[1 + (i / 7) % 5] as stato from generate_series(1, :n) i) s`, { tenant, n });
    }
  },
} satisfies Record<string, Seed>);

// Monitoring's evaluation paths: KYT events over customers of their own (three chains, both directions, a year of times), and the
// runs of the engine (daily batches, one a day, and replays, in every state).
Object.assign(LIST_SEEDS, {
  'monitoring.kyt-events': async (owner: Knex) => {
    for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
      await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
        select :tenant, 'KYTANA-' || lpad(i::text, 5, '0'), 'persona_fisica', 'Cliente ' || md5(i::text), 'seed' from generate_series(1, :n / 20) i`, { tenant, n });
      await owner.raw(`insert into kyt_eventi (id, cod_azienda, chain, hash, direzione, indirizzo_da, indirizzo_a, asset, importo, importo_eur, data_ora, giorno, ora,
          cod_anagrafe, risolto_da, created_by)
        select gen_random_uuid(), :tenant, (array['ethereum','bitcoin','tron'])[1 + i % 3], md5(i::text || :tenant), (array['entrata','uscita'])[1 + i % 2],
          '0x' || md5('da' || i), '0x' || md5('a' || i), (array['ETH','BTC','USDT'])[1 + i % 3], 1 + i % 100, 10 + i % 10000,
          t, (t at time zone 'Europe/Rome')::date, to_char(t at time zone 'Europe/Rome', 'HH24:MI:SS'),
          'KYTANA-' || lpad((1 + i % (:n / 20))::text, 5, '0'), 'wallet', 'seed'
        from generate_series(1, :n) i, lateral (select timestamptz '2025-01-01' + i * interval '25 minutes' as t) s`, { tenant, n });
    }
  },
  'monitoring.runs': perTenant(`insert into monitoring_esecuzioni (id, cod_azienda, tipo, stato, giorno, dal, al, totale, elaborati, workflow_id, avviata_da, created_at, finished_at)
    select gen_random_uuid(), :tenant, tipo, stato, case when tipo = 'giornaliero' then d end, d, d + case when tipo = 'replay' then 30 else 0 end, 100, 100,
      'monitoring-seed:' || :tenant || ':' || i, 'seed', now() - i * interval '1 minute', case when stato <> 'running' then now() end
    from generate_series(1, :n) i, lateral (select (array['giornaliero','replay'])[1 + i % 2] as tipo,
      (array['completed','completed','failed','cancelled','running'])[1 + (i / 2) % 5] as stato, date '2000-01-01' + i as d) s`),
} satisfies Record<string, Seed>);

// Regulatory reports (issue 25): a report per type and month (one live report each, as the unique index wants), over the states.
Object.assign(LIST_SEEDS, {
  reporting: perTenant(`insert into reporting_reports (id, cod_azienda, tipo, periodo, stato, progresso, negativa, righe, operazioni, totale_eur,
      generated_by, generated_by_username, due_at, overdue, workflow_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, (array['comunicazione_oggettiva','sara'])[1 + i % 2], to_char(date '2000-01-01' + (i / 2) * interval '1 month', 'YYYY-MM'),
      (array['generated','approved','submitted','completed','failed'])[1 + (i / 2) % 5], 100, i % 7 = 0, i % 40, i % 400, (i % 400) * 1000,
      'seed', 'seed', date '2000-03-15' + (i / 2) * interval '1 month', i % 9 = 0, 'reporting:' || :tenant || ':' || i, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i`),
} satisfies Record<string, Seed>);

// The document spine (issue 25, part 3): documents of the seeded customers (a tenth with no customer), every kind,
// a twentieth under legal hold, sizes spread; the customers' relationships feed the retention filter.
Object.assign(LIST_SEEDS, {
  'spine.documenti': async (owner: Knex) => {
    await seedCustomers(owner);
    await perTenant(`insert into documenti_spine (id, cod_azienda, tipo, sorgente_id, sha256, nome_file, mime, dimensione, cod_anagrafe, record_tipo, record_id,
        archivio, blocco_legale, blocco_motivo, created_by, created_at)
      select gen_random_uuid(), :tenant, (array['caricamento','onboarding','documento','evidenza','pacchetto_filing','firma'])[1 + i % 6], 'seed-' || i,
        md5(i::text) || md5(:tenant || i::text), 'documento-' || i || '.pdf', 'application/pdf', 1000 + (i * 7919) % 5000000,
        case when i % 10 = 0 then null else 'ANA-' || lpad((1 + i % :n)::text, 6, '0') end, 'anagrafe', 'ANA-' || lpad((1 + i % :n)::text, 6, '0'),
        'store', i % 20 = 0, case when i % 20 = 0 then 'Blocco ' || i end, 'seed', now() - i * interval '1 minute'
      from generate_series(1, :n) i`)(owner);
  },
} satisfies Record<string, Seed>);

// Customer dossiers (docs/dossier.md): a customer for every ten dossiers, in every state; a small PDF's bytes stand for the file.
Object.assign(LIST_SEEDS, {
  dossiers: async (owner: Knex) => {
    for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
      await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
        select :tenant, 'DOSSEED-' || lpad(i::text, 5, '0'), 'persona_fisica', 'Cliente ' || md5(i::text), 'seed' from generate_series(1, :n / 10) i`, { tenant, n });
      await owner.raw(`insert into dossiers (id, cod_azienda, cod_anagrafe, denominazione, sezioni, stato, pdf, pdf_sha256, pdf_bytes, pagine, manifest, manifest_jws,
          created_by, workflow_id, generated_at, created_at, updated_at)
        select gen_random_uuid(), :tenant, 'DOSSEED-' || lpad((1 + i % (:n / 10))::text, 5, '0'), 'Cliente ' || md5((1 + i % (:n / 10))::text), array['identita'],
          (array['generated','signing','signed','archived'])[1 + i % 4], convert_to('%PDF-1.4', 'UTF8'), md5(i::text) || md5(i::text), 8, 1 + i % 9, '{}', 'x',
          'seed', 'dossier:' || :tenant || ':' || i, now() - i * interval '1 minute', now() - i * interval '1 minute', now()
        from generate_series(1, :n) i`, { tenant, n });
    }
  },
} satisfies Record<string, Seed>);

// SOS reports (every state and both kinds, a customer per 20 reports, evaluation terms on the evaluated ones) and filings
// (every state and type, customers on a third of them, due dates on most).
Object.assign(LIST_SEEDS, {
  'sos.reports': async (owner: Knex) => {
    for (const [tenant, n] of [[BIG_TENANT, BIG_ROWS], ...OTHER_TENANTS.map((t) => [t, OTHER_ROWS] as const)] as const) {
      await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, created_by)
        select :tenant, 'SOSANA-' || lpad(i::text, 5, '0'), 'persona_fisica', 'Cliente ' || md5(i::text), 'seed' from generate_series(1, :n / 20) i`, { tenant, n });
      await owner.raw(`insert into sos_reports (id, cod_azienda, stato, origine, cod_anagrafe, oggetto, reporter, reporter_username, valutazione_giorni,
          valutazione_scadenza, protocollo_uif, workflow_id, created_at, updated_at)
        select gen_random_uuid(), :tenant, stato, (array['alert','caso','cdd','manuale'])[1 + i % 4], 'SOSANA-' || lpad((1 + i % (:n / 20))::text, 5, '0'),
          'Segnalazione ' || md5(i::text), case when i % 20 = 0 then cast(:user as uuid) else gen_random_uuid() end, 'seed', 30,
          case when stato <> 'draft' then now() + ((i % 90) - 30) * interval '1 day' end,
          case when stato in ('transmitted', 'closed') then 'UIF-' || i end, 'sos:' || :tenant || ':' || i, now() - i * interval '1 minute', now()
        from (select i, (array['draft','submitted','under_evaluation','archived','to_transmit','transmitted','closed'])[1 + i % 7] as stato from generate_series(1, :n) i) s`,
      { tenant, n, user: SEED_USER });
    }
  },
  filings: perTenant(`insert into filings (id, cod_azienda, titolo, tipo, stato, created_by, workflow_id, due_at, cod_anagrafe, created_at, updated_at)
    select gen_random_uuid(), :tenant, 'Segnalazione ' || md5(i::text), (array['str','comunicazione_oggettiva','sara'])[1 + i % 3],
      (array['draft','classified','validated','ready','pending_approval','approved','signing','signed','packaged','submitted','acknowledged','returned','archived'])[1 + i % 13],
      'seed', 'filing:' || :tenant || ':' || i, case when i % 5 <> 0 then now() + ((i % 120) - 30) * interval '1 day' end,
      case when i % 3 = 0 then 'FILANA-' || lpad((1 + i % 1000)::text, 5, '0') end, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i`),
} satisfies Record<string, Seed>);
