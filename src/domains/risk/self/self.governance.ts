import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { notFound } from '../../../http/errors';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { appendAudit } from '../../audit';
import { measure } from './self.figures';
import { controlVulnerability, type Esito, type Giudizio, type Livello } from './self.matrix';

/** Controls, RAF metrics, KRIs and decisions: plain records of the self-assessment's governance, audited. */

export interface ControlInput { nome: string; area: string; linea_id: string | null; responsabile: string; frequenza: string; disegno: Giudizio; efficacia: Giudizio; descrizione: string }
export interface TestInput { data: string; esito: Esito; note: string }

export async function listControls(trx: Knex.Transaction, codAzienda: string) {
  const controls = await trx('rischio_controlli as c').leftJoin('rischio_linee as l', 'l.id', 'c.linea_id').where('c.cod_azienda', codAzienda)
    .orderBy([{ column: 'c.area' }, { column: 'c.nome' }, { column: 'c.id' }]).select('c.*', 'l.nome as linea_nome');
  const tests = await trx('rischio_controlli_test').where('cod_azienda', codAzienda).orderBy([{ column: 'data', order: 'desc' }, { column: 'created_at', order: 'desc' }]).select('*');
  const byControl = new Map<string, typeof tests>();
  for (const t of tests) byControl.set(t.controllo_id, [...(byControl.get(t.controllo_id) ?? []), t]);
  return controls.map((c) => {
    const own = byControl.get(c.id) ?? [];
    return { ...c, tests: own, vulnerabilita: controlVulnerability({ disegno: c.disegno, efficacia: c.efficacia, ultimoEsito: own[0]?.esito ?? null }) as Livello };
  });
}

export async function activeLines(trx: Knex.Transaction, codAzienda: string) {
  return trx('rischio_linee').where({ cod_azienda: codAzienda, attiva: true }).orderBy([{ column: 'ordine' }, { column: 'codice' }]).select('*');
}

async function assertLine(trx: Knex.Transaction, codAzienda: string, id: string | null) {
  if (id && !(await trx('rischio_linee').where({ cod_azienda: codAzienda, id }).first('id'))) throw notFound('Linea di business');
}

export async function createControl(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, input: ControlInput): Promise<string> {
  await assertLine(trx, codAzienda, input.linea_id);
  const id = randomUUID();
  await trx('rischio_controlli').insert({ id, cod_azienda: codAzienda, ...input, created_by: actor.id });
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_controllo.create', entityType: 'rischio_controllo', entityId: id, data: { ...input } });
  return id;
}

export async function recordTest(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, controlloId: string, input: TestInput): Promise<void> {
  const c = await trx('rischio_controlli').where({ cod_azienda: codAzienda, id: controlloId }).first('id', 'nome');
  if (!c) throw notFound('Controllo', 'm');
  const id = randomUUID();
  await trx('rischio_controlli_test').insert({ id, cod_azienda: codAzienda, controllo_id: controlloId, ...input, created_by: actor.id });
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_controllo.test', entityType: 'rischio_controllo', entityId: controlloId, data: { ...input, controllo: c.nome } });
}

export type RafStato = 'entro' | 'oltre_appetito' | 'oltre_tolleranza' | 'oltre_capacita' | 'nd';
/** Where an actual value stands against the levels (the actual must stay at or below each). */
export function rafStatus(valore: number | null, m: { appetito: number; tolleranza: number; capacita: number }): RafStato {
  if (valore === null) return 'nd';
  if (valore > m.capacita) return 'oltre_capacita';
  if (valore > m.tolleranza) return 'oltre_tolleranza';
  if (valore > m.appetito) return 'oltre_appetito';
  return 'entro';
}

export type KriStato = 'verde' | 'ambra' | 'rosso' | 'nd';
export const kriStatus = (valore: number | null, k: { soglia_ambra: number; soglia_rossa: number }): KriStato =>
  (valore === null ? 'nd' : valore >= k.soglia_rossa ? 'rosso' : valore >= k.soglia_ambra ? 'ambra' : 'verde');

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function rafMetrics(trx: Knex.Transaction, codAzienda: string, oggi: string) {
  const rows = await trx('rischio_raf_metriche').where({ cod_azienda: codAzienda }).orderBy([{ column: 'ordine' }, { column: 'codice' }]).select('*');
  const out = [];
  for (const r of rows) {
    const m = { appetito: Number(r.appetito), tolleranza: Number(r.tolleranza), capacita: Number(r.capacita) };
    const valore = r.calcolo === 'manuale' ? num(r.valore_manuale) : await measure(trx, codAzienda, r.calcolo, oggi);
    out.push({ ...r, ...m, valore, stato: rafStatus(valore, m) });
  }
  return out;
}

export interface RafInput { appetito: number; tolleranza: number; capacita: number; valore_manuale: number | null; descrizione: string }

export async function updateRafMetric(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, id: string, input: RafInput): Promise<void> {
  const n = await trx('rischio_raf_metriche').where({ cod_azienda: codAzienda, id }).update({ ...input, updated_by: actor.id, updated_at: trx.fn.now() });
  if (!n) throw notFound('Metrica');
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_raf.update', entityType: 'rischio_raf', entityId: id, data: { ...input } });
}

/** Month labels of the last n months ending with the current one (first days, ISO). */
export function lastMonths(oggi: string, n: number): string[] {
  const [y, m] = oggi.split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1));
    return d.toISOString().slice(0, 10);
  });
}

export interface KriView {
  id: string; codice: string; nome: string; calcolo: string; unita: string; soglia_ambra: number; soglia_rossa: number;
  attuale: number | null; stato: KriStato; serie: (number | null)[];
}

export async function kriIndicators(trx: Knex.Transaction, codAzienda: string, oggi: string, months = 12) {
  const rows = await trx('rischio_kri').where({ cod_azienda: codAzienda }).orderBy([{ column: 'ordine' }, { column: 'codice' }]).select('*');
  const mesi = lastMonths(oggi, months);
  const valori = await trx('rischio_kri_valori').where('cod_azienda', codAzienda).where('mese', '>=', mesi[0]!)
    .select('kri_id', trx.raw("to_char(mese, 'YYYY-MM-DD') as mese"), 'valore', 'fonte');
  const out: KriView[] = [];
  for (const r of rows) {
    const k = { soglia_ambra: Number(r.soglia_ambra), soglia_rossa: Number(r.soglia_rossa) };
    const attuale = r.calcolo === 'manuale' ? null : await measure(trx, codAzienda, r.calcolo, oggi);
    const serie = mesi.map((mese) => num(valori.find((v) => v.kri_id === r.id && v.mese === mese)?.valore));
    out.push({ ...r, ...k, attuale, stato: kriStatus(attuale, k), serie });
  }
  return { indicatori: out, mesi };
}

/**
 * Records this month's value of every computed KRI (the trend's point for the month); run again
 * in the same month, it replaces the month's computed value.
 */
export async function recordKriMonth(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, oggi: string): Promise<number> {
  const mese = `${oggi.slice(0, 7)}-01`;
  const rows = await trx('rischio_kri').where({ cod_azienda: codAzienda }).whereNot('calcolo', 'manuale').select('id', 'calcolo', 'codice');
  const values: Record<string, number> = {};
  for (const r of rows) {
    const v = await measure(trx, codAzienda, r.calcolo, oggi);
    if (v === null) continue;
    values[r.codice] = v;
    await trx('rischio_kri_valori').insert({ id: randomUUID(), cod_azienda: codAzienda, kri_id: r.id, mese, valore: v, fonte: 'calcolato', created_by: actor.id })
      .onConflict(['kri_id', 'mese']).merge(['valore', 'fonte', 'created_by', 'created_at']);
  }
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_kri.rileva', entityType: 'rischio_kri', entityId: `KRI-${mese.slice(0, 7)}`, data: { mese, valori: values } });
  return Object.keys(values).length;
}

export interface DecisionInput { data: string; oggetto: string; decisione: string; decisa_da: string; motivazione: string; autovalutazione_id: string | null; metrica_id: string | null }

export async function listDecisions(trx: Knex.Transaction, codAzienda: string) {
  return trx('rischio_decisioni as d').leftJoin('rischio_autovalutazioni as a', 'a.id', 'd.autovalutazione_id').leftJoin('rischio_raf_metriche as m', 'm.id', 'd.metrica_id')
    .where('d.cod_azienda', codAzienda).orderBy([{ column: 'd.data', order: 'desc' }, { column: 'd.created_at', order: 'desc' }]).limit(500)
    .select('d.*', 'a.anno as anno', 'm.nome as metrica_nome');
}

export async function createDecision(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, input: DecisionInput): Promise<string> {
  if (input.autovalutazione_id && !(await trx('rischio_autovalutazioni').where({ cod_azienda: codAzienda, id: input.autovalutazione_id }).first('id'))) throw notFound('Autovalutazione');
  if (input.metrica_id && !(await trx('rischio_raf_metriche').where({ cod_azienda: codAzienda, id: input.metrica_id }).first('id'))) throw notFound('Metrica');
  const id = randomUUID();
  await trx('rischio_decisioni').insert({ id, cod_azienda: codAzienda, ...input, created_by: actor.id });
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_decisione.create', entityType: 'rischio_decisione', entityId: id, data: { ...input } });
  return id;
}
