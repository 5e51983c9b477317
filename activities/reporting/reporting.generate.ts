import type { Knex } from 'knex';
import { CO_FLOOR_CENTS, comunicazioneOggettiva, type CoOperation } from '../../workflows/reporting/rules/comunicazioni-oggettive';
import { monthRange } from '../../workflows/reporting/rules/period';
import { SARA_THRESHOLD_CENTS, saraAggregate, type SaraOperation } from '../../workflows/reporting/rules/sara';
import type { ReportTipo } from '../../workflows/reporting/rules';

/** A line as written to reporting_lines, with the operations behind it. */
export interface GeneratedLine {
  cod_anagrafe?: string | null;
  anagrafe_codice_esterno?: string | null;
  cod_rapporto?: string | null;
  rapporto_codice_esterno?: string | null;
  ruoli?: string[] | null;
  causale?: string | null;
  residenza?: string | null;
  settore?: string | null;
  segno: string;
  totale_cents: number;
  numero: number;
  contanti_cents: number;
  numero_contanti: number;
  operazioni: { id: string; data_operazione: string; ruolo: string | null }[];
}

export interface GeneratedReport { negativa: boolean; lines: GeneratedLine[] }

const cents = (v: string | number) => Number(v);

/**
 * The month's cash operations that can count for a comunicazione oggettiva, read in one statement:
 * the month prunes movimenti to its partition, the cash partial index (cod_azienda,
 * data_operazione, id) where contanti serves the range, and the rule's floor is applied here too,
 * so only operations the rule may count leave the database. The rule decides the rest.
 */
async function coOperations(trx: Knex.Transaction, codAzienda: string, periodo: string): Promise<CoOperation[]> {
  const { dal, al } = monthRange(periodo);
  const rows = await trx('movimenti').where('cod_azienda', codAzienda).whereBetween('data_operazione', [dal, al]).where('contanti', true)
    .where('importo_eur', '>=', CO_FLOOR_CENTS / 100)
    .select('id', trx.raw('data_operazione::text as data_operazione'), 'cod_rapporto', 'cod_anagrafe', 'cod_anagrafe_esecutore', 'segno', 'contanti',
      trx.raw('(importo_eur * 100)::bigint as importo_cents'));
  return rows.map((r: Record<string, unknown>) => ({ ...(r as unknown as CoOperation), importo_cents: cents(r.importo_cents as string) }));
}

/** The month's operations of the S.AR.A. amount with their customer's residence and sector (one join on the customer's key). */
async function saraOperations(trx: Knex.Transaction, codAzienda: string, periodo: string): Promise<SaraOperation[]> {
  const { dal, al } = monthRange(periodo);
  const rows = await trx('movimenti as m')
    .join('anagrafe as a', (j) => j.on('a.cod_azienda', 'm.cod_azienda').andOn('a.cod_anagrafe', 'm.cod_anagrafe'))
    .where('m.cod_azienda', codAzienda).whereBetween('m.data_operazione', [dal, al]).where('m.importo_eur', '>=', SARA_THRESHOLD_CENTS / 100)
    .select('m.id', trx.raw('m.data_operazione::text as data_operazione'), 'm.segno', 'm.contanti', 'm.causale',
      'a.paese_residenza as residenza', 'a.ateco', trx.raw('(m.importo_eur * 100)::bigint as importo_cents'));
  return rows.map((r: Record<string, unknown>) => ({ ...(r as unknown as SaraOperation), importo_cents: cents(r.importo_cents as string) }));
}

/** The external codes of the subjects and relationships a communication names (two statements, whatever the lines). */
async function externalCodes(trx: Knex.Transaction, codAzienda: string, subjects: string[], relationships: string[]) {
  const [a, r] = [
    await trx('anagrafe').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', subjects).select('cod_anagrafe', 'codice_esterno'),
    await trx('rapporti').where('cod_azienda', codAzienda).whereIn('cod_rapporto', relationships).select('cod_rapporto', 'codice_esterno'),
  ];
  return {
    anagrafe: new Map(a.map((x: { cod_anagrafe: string; codice_esterno: string | null }) => [x.cod_anagrafe, x.codice_esterno])),
    rapporti: new Map(r.map((x: { cod_rapporto: string; codice_esterno: string | null }) => [x.cod_rapporto, x.codice_esterno])),
  };
}

/** Reads the month's movements and applies the report type's rule (workflows/reporting/rules). */
export async function generateLines(trx: Knex.Transaction, codAzienda: string, tipo: ReportTipo, periodo: string, progress: (pct: number, fase: string) => Promise<void>): Promise<GeneratedReport & { lette: number }> {
  if (tipo === 'comunicazione_oggettiva') {
    const ops = await coOperations(trx, codAzienda, periodo);
    await progress(40, `Movimenti letti: ${ops.length} operazioni in contanti di almeno 1.000 euro`);
    const dates = new Map(ops.map((o) => [o.id, o.data_operazione]));
    const r = comunicazioneOggettiva(ops);
    const codes = await externalCodes(trx, codAzienda, [...new Set(r.righe.map((l) => l.cod_anagrafe))], [...new Set(r.righe.map((l) => l.cod_rapporto))]);
    return {
      lette: ops.length, negativa: r.negativa,
      lines: r.righe.map((l) => ({
        cod_anagrafe: l.cod_anagrafe, anagrafe_codice_esterno: codes.anagrafe.get(l.cod_anagrafe) ?? null,
        cod_rapporto: l.cod_rapporto, rapporto_codice_esterno: codes.rapporti.get(l.cod_rapporto) ?? null, ruoli: l.ruoli,
        segno: l.segno, totale_cents: l.totale_cents, numero: l.numero, contanti_cents: l.totale_cents, numero_contanti: l.numero,
        operazioni: l.operazioni.map((o) => ({ id: o.id, data_operazione: dates.get(o.id)!, ruolo: o.ruolo })),
      })),
    };
  }
  const ops = await saraOperations(trx, codAzienda, periodo);
  await progress(40, `Movimenti letti: ${ops.length} operazioni di almeno 5.000 euro`);
  const dates = new Map(ops.map((o) => [o.id, o.data_operazione]));
  const r = saraAggregate(ops);
  return {
    lette: ops.length, negativa: r.negativa,
    lines: r.righe.map((l) => ({
      causale: l.causale, residenza: l.residenza, settore: l.settore, segno: l.segno, totale_cents: l.totale_cents, numero: l.numero,
      contanti_cents: l.contanti_cents, numero_contanti: l.numero_contanti,
      operazioni: l.operazioni.map((id) => ({ id, data_operazione: dates.get(id)!, ruolo: null })),
    })),
  };
}

const OPS_PER_INSERT = 5_000;

/** Writes the lines and the operations behind them (arrays per column: one statement per 5,000 operations). */
export async function writeLines(trx: Knex.Transaction, codAzienda: string, reportId: string, lines: GeneratedLine[], newId: () => string): Promise<void> {
  await trx('reporting_line_operations').where({ report_id: reportId }).delete();
  await trx('reporting_lines').where({ report_id: reportId }).delete();
  const ops: { line: string; mov: string; data: string; ruolo: string | null }[] = [];
  const rows = lines.map((l, i) => {
    const id = newId();
    for (const o of l.operazioni) ops.push({ line: id, mov: o.id, data: o.data_operazione, ruolo: o.ruolo });
    return {
      id, cod_azienda: codAzienda, report_id: reportId, n: i + 1, cod_anagrafe: l.cod_anagrafe ?? null, anagrafe_codice_esterno: l.anagrafe_codice_esterno ?? null,
      cod_rapporto: l.cod_rapporto ?? null, rapporto_codice_esterno: l.rapporto_codice_esterno ?? null, ruoli: l.ruoli ?? null,
      causale: l.causale ?? null, residenza: l.residenza ?? null, settore: l.settore ?? null, segno: l.segno,
      totale_eur: (l.totale_cents / 100).toFixed(2), numero: l.numero, contanti_eur: (l.contanti_cents / 100).toFixed(2), numero_contanti: l.numero_contanti,
    };
  });
  for (let i = 0; i < rows.length; i += 1_000) await trx('reporting_lines').insert(rows.slice(i, i + 1_000));
  for (let i = 0; i < ops.length; i += OPS_PER_INSERT) {
    const chunk = ops.slice(i, i + OPS_PER_INSERT);
    await trx.raw(`insert into reporting_line_operations (cod_azienda, report_id, line_id, movimento_id, data_operazione, ruolo)
      select ?, ?, o.line, o.mov, o.data, o.ruolo from unnest(?::uuid[], ?::uuid[], ?::date[], ?::text[]) as o(line, mov, data, ruolo)`,
    [codAzienda, reportId, chunk.map((o) => o.line), chunk.map((o) => o.mov), chunk.map((o) => o.data), chunk.map((o) => o.ruolo) as string[]]);
  }
}
