import type { Knex } from 'knex';
import type { TipoArco, TipoNodo } from '../verifications.vocabulary';
import type { StructureGraph, UboResult } from './ubo.types';

/** A node, an edge and a calculation as stored (numeric columns as numbers, dates as yyyy-mm-dd). */
export interface NodeRow {
  id: string; tipo: TipoNodo; denominazione: string; codice_fiscale: string | null; paese: string | null; data_nascita: string | null;
  cod_anagrafe: string | null; radice: boolean; fonte: string; created_by: string; created_at: Date;
}
export interface EdgeRow {
  id: string; da_nodo_id: string; a_nodo_id: string; tipo: TipoArco; percentuale: number | null; percentuale_voti: number | null;
  note: string | null; created_by: string; created_at: Date;
}
export interface Discrepancy { tipo: 'mancante' | 'non_dichiarato' | 'quota'; denominazione: string; codice_fiscale: string | null; messaggio: string; dichiarata?: number | null; calcolata?: number | null }
export interface CalculationRow {
  id: string; soglia: number; risultato: UboResult; discrepanze: Discrepancy[]; nodi: number; archi: number; created_by: string; created_at: Date;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const day = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

const NODE_COLUMNS = ['id', 'tipo', 'denominazione', 'codice_fiscale', 'paese', 'data_nascita', 'cod_anagrafe', 'radice', 'fonte', 'created_by', 'created_at'];
const EDGE_COLUMNS = ['id', 'da_nodo_id', 'a_nodo_id', 'tipo', 'percentuale', 'percentuale_voti', 'note', 'created_by', 'created_at'];

export async function structureNodes(trx: Knex.Transaction, codAzienda: string, verificaId: string): Promise<NodeRow[]> {
  const rows = await trx('strutture_nodi').where({ cod_azienda: codAzienda, verifica_id: verificaId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select(NODE_COLUMNS);
  return rows.map((r) => ({ ...r, data_nascita: day(r.data_nascita) }));
}

export async function structureEdges(trx: Knex.Transaction, codAzienda: string, verificaId: string): Promise<EdgeRow[]> {
  const rows = await trx('strutture_archi').where({ cod_azienda: codAzienda, verifica_id: verificaId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select(EDGE_COLUMNS);
  return rows.map((r) => ({ ...r, percentuale: num(r.percentuale), percentuale_voti: num(r.percentuale_voti) }));
}

export async function latestCalculation(trx: Knex.Transaction, codAzienda: string, verificaId: string): Promise<CalculationRow | undefined> {
  const r = await trx('strutture_calcoli').where({ cod_azienda: codAzienda, verifica_id: verificaId }).orderBy('created_at', 'desc').first();
  return r ? calculationOf(r) : undefined;
}

export async function calculationById(trx: Knex.Transaction, codAzienda: string, id: string): Promise<CalculationRow | undefined> {
  const r = await trx('strutture_calcoli').where({ cod_azienda: codAzienda, id }).first();
  return r ? calculationOf(r) : undefined;
}

function calculationOf(r: Record<string, any>): CalculationRow {
  return { id: r.id, soglia: Number(r.soglia), risultato: r.risultato, discrepanze: r.discrepanze, nodi: r.nodi, archi: r.archi, created_by: r.created_by, created_at: r.created_at };
}

/** The stored structure as the engine's graph. */
export function toGraph(nodes: NodeRow[], edges: EdgeRow[]): StructureGraph {
  return {
    nodes: nodes.map((n) => ({ id: n.id, tipo: n.tipo, denominazione: n.denominazione, radice: n.radice, codice_fiscale: n.codice_fiscale, cod_anagrafe: n.cod_anagrafe })),
    edges: edges.map((e) => ({ id: e.id, da: e.da_nodo_id, a: e.a_nodo_id, tipo: e.tipo, percentuale: e.percentuale, percentuale_voti: e.percentuale_voti })),
  };
}
