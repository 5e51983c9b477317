import type { Knex } from 'knex';
import { HttpError } from '../../../http/errors';
import { runList, tenantScope } from '../../../kit/list';
import { riskMatrixCellList } from './views.list';
import { coordinate, type MatrixCellQuery } from './views.schemas';

export interface MatrixCellRow {
  cod_anagrafe: string; denominazione: string; tipo_soggetto: string; paese_residenza: string | null; punteggio: number;
  classe_calcolata: string; classe: string; probabilita: number; impatto: number; calcolato_at: Date; valutazione_id: string | null;
}

/** The cell named by the path (`/matrix/:p/:i`): two integers 1..4, or a 400 that says which one is wrong. */
export function cellOf(p: string | undefined, i: string | undefined): { probabilita: number; impatto: number } {
  const pp = coordinate.safeParse(p);
  const ii = coordinate.safeParse(i);
  if (!pp.success || !ii.success) {
    const which = [!pp.success ? `probabilità «${p ?? ''}»` : null, !ii.success ? `impatto «${i ?? ''}»` : null].filter(Boolean).join(' e ');
    throw new HttpError(400, 'BAD_REQUEST', 'Cella della matrice non valida', `Probabilità e impatto vanno da 1 a 4: ${which} non valido`);
  }
  return { probabilita: pp.data, impatto: ii.data };
}

export function listMatrixCell(trx: Knex.Transaction, codAzienda: string, cell: { probabilita: number; impatto: number }, q: MatrixCellQuery) {
  return runList<MatrixCellRow>(trx, riskMatrixCellList, tenantScope(codAzienda), { ...q, ...cell });
}
