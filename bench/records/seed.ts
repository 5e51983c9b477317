import type { Knex } from 'knex';

/**
 * A variant of the movements' rows: `rows` is a select over `generate_series(:from + 1, :to) i`
 * giving the insert's columns (named bindings :cod, :c (customers), :from, :to, :days), spread
 * over the last `days` days. The default is the records benchmark's uniform rows over two years.
 */
export interface MovementRows { days: number; columns: string; rows: string }

const UNIFORM: MovementRows = {
  days: 731,
  columns: `id, cod_azienda, cod_rapporto, cod_anagrafe, data_operazione, data_valuta, importo, valuta, importo_eur, segno, causale, canale, contanti,
          controparte_nome, controparte_paese, chiave_esterna, created_by, created_at`,
  rows: `select gen_random_uuid(), :cod, 'RAP-' || lpad((1 + i % :c::bigint)::text, 6, '0'), 'ANA-' || lpad((1 + i % :c::bigint)::text, 6, '0'),
          current_date - (i % 731)::int, current_date - (i % 731)::int, 1 + (i * 7919 % 1000000) / 100.0, 'EUR', 1 + (i * 7919 % 1000000) / 100.0,
          (array['entrata','uscita'])[1 + i % 2], (array['Bonifico','Prelievo','Versamento','Pagamento POS'])[1 + i % 4],
          (array['bonifico','sportello','ATM','POS'])[1 + i % 4], i % 25 = 0, 'Controparte ' || (i % 5000), (array['IT','IT','DE','FR'])[1 + i % 4],
          'SEED-' || i, 'bench', now()
        from generate_series(:from::bigint + 1, :to::bigint) i`,
};

/**
 * The records benchmark's data, written by the owner inside PostgreSQL (generate_series), on the
 * throw-away database of the benchmark's own `npm start`: `customers` customers with one
 * relationship each (and its holder role), and `movements` movements spread over the last two
 * years. The movements' indexes and keys are dropped for the load and rebuilt after (a sorted
 * build is several times faster than ten million index insertions); their definitions are read
 * from the catalogue first, so what is rebuilt is exactly what the migrations made.
 */
export async function seedRecords(owner: Knex, p: { codAzienda: string; customers: number; movements: number; log: (m: string) => void; history?: MovementRows }) {
  const { codAzienda, customers, movements, log } = p;
  const history = p.history ?? UNIFORM;
  await owner.raw(`insert into anagrafe (cod_azienda, cod_anagrafe, tipo_soggetto, denominazione, nome, cognome, paese_residenza, nazionalita, pep, classe_rischio, stato, created_by, created_at, updated_at)
    select :cod, 'ANA-' || lpad(i::text, 6, '0'), case when i % 5 = 0 then 'societa' else 'persona_fisica' end,
      case when i % 5 = 0 then 'Società ' || i || ' S.r.l.' else 'Nome' || i || ' Cognome' || md5(i::text) end,
      case when i % 5 = 0 then null else 'Nome' || i end, case when i % 5 = 0 then null else 'Cognome' || md5(i::text) end,
      (array['IT','IT','IT','DE','FR','ES'])[1 + i % 6], 'IT', i % 50 = 0, (array['basso','medio','medio_alto','alto'])[1 + i % 4], 'attivo', 'bench',
      now() - make_interval(secs => i), now()
    from generate_series(1, :n) i`, { cod: codAzienda, n: customers });
  await owner.raw(`insert into rapporti (cod_azienda, cod_rapporto, cod_anagrafe, tipo, stato, data_apertura, created_by, created_at, updated_at)
    select :cod, 'RAP-' || lpad(i::text, 6, '0'), 'ANA-' || lpad(i::text, 6, '0'), 'conto corrente', 'attivo', date '2015-01-01' + (i % 3000), 'bench', now(), now()
    from generate_series(1, :n) i`, { cod: codAzienda, n: customers });
  await owner.raw(`insert into rapporti_soggetti (id, cod_azienda, cod_rapporto, cod_anagrafe, ruolo, dal, fonte, created_by)
    select gen_random_uuid(), :cod, 'RAP-' || lpad(i::text, 6, '0'), 'ANA-' || lpad(i::text, 6, '0'), 'intestatario', date '2015-01-01', 'import', 'bench'
    from generate_series(1, :n) i`, { cod: codAzienda, n: customers });
  await owner.raw('update codici_progressivi set ultimo = greatest(ultimo, ?) where cod_azienda = ? and serie in (?, ?)', [customers, codAzienda, 'ANA', 'RAP']);
  await owner.raw(`insert into codici_progressivi (cod_azienda, serie, ultimo) values (?, 'ANA', ?), (?, 'RAP', ?) on conflict do nothing`, [codAzienda, customers, codAzienda, customers]);
  log(`${customers} customers and relationships written`);

  await owner.raw(`select movimenti_ensure_partitions(array(select generate_series(current_date - ?::int, current_date, interval '1 month')::date) || current_date)`, [history.days]);
  const rebuild = await dropForLoad(owner, ['movimenti', 'movimenti_chiavi']);
  const chunk = 1_000_000;
  for (let from = 0; from < movements; from += chunk) {
    const n = Math.min(chunk, movements - from);
    await owner.transaction(async (trx) => {
      await trx.raw('set local synchronous_commit = off');
      await trx.raw(`insert into movimenti (${history.columns}) ${history.rows}`, { cod: codAzienda, c: customers, from, to: from + n, days: history.days });
    });
    log(`movements: ${from + n} of ${movements}`);
  }
  await owner.raw(`insert into movimenti_chiavi (cod_azienda, chiave_esterna, movimento_id, data_operazione)
    select cod_azienda, chiave_esterna, id, data_operazione from movimenti where cod_azienda = ?`, [codAzienda]);
  log('movement keys written; rebuilding indexes and constraints');
  await rebuild();
  await owner.raw('vacuum (analyze) anagrafe, rapporti, rapporti_soggetti, movimenti, movimenti_chiavi');
  log('indexes rebuilt, tables analysed');
}

/** Drops the tables' indexes, primary keys and foreign keys; answers the function that makes them again, as they were. */
async function dropForLoad(owner: Knex, tables: string[]): Promise<() => Promise<void>> {
  const { rows: constraints } = await owner.raw<{ rows: { tbl: string; name: string; def: string }[] }>(`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid = any(?::regclass[]) and contype in ('p', 'f', 'u') and conparentid = 0`, [tables]);
  const { rows: indexes } = await owner.raw<{ rows: { name: string; def: string }[] }>(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
     where i.indrelid = any(?::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`, [tables]);
  for (const c of constraints.filter((x) => x.def.startsWith('FOREIGN'))) await owner.raw(`alter table ${c.tbl} drop constraint ${c.name}`);
  for (const c of constraints.filter((x) => !x.def.startsWith('FOREIGN'))) await owner.raw(`alter table ${c.tbl} drop constraint ${c.name}`);
  for (const i of indexes) await owner.raw(`drop index ${i.name}`);
  return async () => {
    await owner.transaction(async (trx) => {
      await trx.raw("set local maintenance_work_mem = '1GB'");
      for (const c of constraints.filter((x) => !x.def.startsWith('FOREIGN'))) await trx.raw(`alter table ${c.tbl} add constraint ${c.name} ${c.def}`);
      // pg_get_indexdef names a partitioned table's index ON ONLY (the parent alone): build it on every partition.
      for (const i of indexes) await trx.raw(i.def.replace(' ON ONLY ', ' ON '));
      for (const c of constraints.filter((x) => x.def.startsWith('FOREIGN'))) await trx.raw(`alter table ${c.tbl} add constraint ${c.name} ${c.def}`);
    });
  };
}
