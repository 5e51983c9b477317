import type { Knex } from 'knex';
import { runList, tenantScope } from '../../../kit/list';
import type { RiskRunStato, RiskRunTipo } from '../../../../workflows/risk/risk-portfolio.contract';
import type { Classe } from '../risk.types';
import type { Differenza, Riepilogo } from './runs.diff';
import { riskRunResultsList, riskRunsList, type ClasseAttualeFiltro } from './runs.list';

export interface RunRow {
  id: string;
  cod_azienda: string;
  tipo: RiskRunTipo;
  versione_id: string;
  stato: RiskRunStato;
  totale: number | null;
  elaborati: number;
  cambi: number;
  /** The summary, plus the lanes' positions (`posizioni`, internal: where a retried batch resumes). */
  riepilogo: Partial<Riepilogo> & { posizioni?: Record<string, string | null> };
  errore: string | null;
  workflow_id: string;
  started_by: string;
  started_at: Date;
  finished_at: Date | null;
}

export interface RunResultRow {
  cod_anagrafe: string;
  denominazione: string;
  punteggio: number;
  classe: Classe;
  punteggio_attuale: number | null;
  classe_attuale: Classe | null;
  cambia: boolean;
  differenze: Differenza[];
}

export const getRun = (trx: Knex.Transaction, id: string): Promise<RunRow | undefined> => trx('rischio_esecuzioni').where({ id }).first();

/** The running run of a kind, if any (at most one: index rischio_esecuzioni_one_running). */
export const runningRun = (trx: Knex.Transaction, codAzienda: string, tipo: RiskRunTipo): Promise<RunRow | undefined> =>
  trx('rischio_esecuzioni').where({ cod_azienda: codAzienda, tipo, stato: 'running' }).first();

export const listRuns = (trx: Knex.Transaction, codAzienda: string, q: { tipo?: RiskRunTipo; stato?: RiskRunStato; sort: string; limit: number; offset: number; cursor?: string }) =>
  runList<RunRow>(trx, riskRunsList, tenantScope(codAzienda), q);

export const listRunResults = (trx: Knex.Transaction, codAzienda: string,
  q: { esecuzione_id: string; cambia?: boolean; classe?: Classe; classe_attuale?: ClasseAttualeFiltro; sort: string; limit: number; offset: number; cursor?: string }) =>
  runList<RunResultRow>(trx, riskRunResultsList, tenantScope(codAzienda), q);
