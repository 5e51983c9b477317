import type { Knex } from 'knex';
import { isUuid } from '../../../kit/ids';
import type { Classe, Famiglia, StatoVersione } from '../risk.types';

/**
 * What the configuration pages read: plain queries under the tenant's RLS. The writes go through
 * the engine's commands (they validate, keep one draft and one active version, and audit).
 */
export interface VersioneRow {
  id: string; versione: number; stato: StatoVersione; descrizione: string; basata_su: string | null;
  created_by: string; created_at: Date; activated_by: string | null; activated_at: Date | null; retired_at: Date | null;
  regole: number;
}

export interface RegolaRow {
  id: string; versione_id: string; fattore_id: string; codice: string; nome: string; descrizione: string; condizione: unknown;
  punti: number; classe_minima: Classe | null; attiva: boolean; ordine: number; updated_by: string | null; updated_at: Date;
  fattore_nome: string; fattore_codice: string; famiglia: Famiglia;
}

export interface FattoreRow {
  id: string; codice: string; nome: string; famiglia: Famiglia; descrizione: string; attivo: boolean; updated_at: Date;
  regole_in_vigore: number; regole_in_bozza: number;
}

export async function ruleSets(trx: Knex.Transaction): Promise<VersioneRow[]> {
  const rows = await trx('rischio_versioni as v')
    .select('v.id', 'v.versione', 'v.stato', 'v.descrizione', 'v.basata_su', 'v.created_by', 'v.created_at', 'v.activated_by', 'v.activated_at', 'v.retired_at')
    .select(trx.raw('(select count(*)::int from rischio_regole r where r.versione_id = v.id) as regole'))
    .orderBy('v.versione', 'desc');
  return rows as VersioneRow[];
}

export async function rulesOf(trx: Knex.Transaction, versioneId: string): Promise<RegolaRow[]> {
  return rulesQuery(trx).where('r.versione_id', versioneId).orderBy([{ column: 'r.ordine' }, { column: 'r.codice' }]);
}

/** One rule with its factor, or undefined (an unknown id, a malformed one or another tenant's). */
export async function ruleById(trx: Knex.Transaction, id: string): Promise<RegolaRow | undefined> {
  if (!isUuid(id)) return undefined;
  return rulesQuery(trx).where('r.id', id).first();
}

const rulesQuery = (trx: Knex.Transaction) => trx('rischio_regole as r').join('rischio_fattori as f', 'f.id', 'r.fattore_id')
  .select('r.id', 'r.versione_id', 'r.fattore_id', 'r.codice', 'r.nome', 'r.descrizione', 'r.condizione', 'r.punti', 'r.classe_minima', 'r.attiva', 'r.ordine',
    'r.updated_by', 'r.updated_at', 'f.nome as fattore_nome', 'f.codice as fattore_codice', 'f.famiglia');

/** The factors with how many rules of the version in force and of the draft use each. */
export async function factorsWithUse(trx: Knex.Transaction): Promise<FattoreRow[]> {
  const count = (stato: StatoVersione) => trx.raw(`(select count(*)::int from rischio_regole r join rischio_versioni v on v.id = r.versione_id
    where r.fattore_id = f.id and r.attiva and v.stato = '${stato}')`);
  const rows = await trx('rischio_fattori as f')
    .select('f.id', 'f.codice', 'f.nome', 'f.famiglia', 'f.descrizione', 'f.attivo', 'f.updated_at')
    .select(trx.raw(`${count('active').toQuery()} as regole_in_vigore`), trx.raw(`${count('draft').toQuery()} as regole_in_bozza`))
    .orderBy([{ column: 'f.famiglia' }, { column: 'f.codice' }]);
  return rows as FattoreRow[];
}

export async function factorById(trx: Knex.Transaction, id: string): Promise<FattoreRow | undefined> {
  if (!isUuid(id)) return undefined;
  return (await factorsWithUse(trx)).find((f) => f.id === id);
}

export interface SogliaRow {
  id: string; classe: Classe; punteggio_min: number; livello_cdd: 'semplificata' | 'ordinaria' | 'rafforzata'; revisione_mesi: number;
  approvazione: 'analyst' | 'co' | 'co_four_eyes'; descrizione: string; updated_by: string; updated_at: Date;
}

/** The policy thresholds, lowest score first (the order of the classes). */
export async function thresholdRows(trx: Knex.Transaction): Promise<SogliaRow[]> {
  return trx('rischio_soglie').select('id', 'classe', 'punteggio_min', 'livello_cdd', 'revisione_mesi', 'approvazione', 'descrizione', 'updated_by', 'updated_at')
    .orderBy('punteggio_min');
}
