import type { Knex } from 'knex';
import { quota } from '../../../http/share-format';
import type { VerificationRow } from '../kyc-kyb';
import { TIPI_ARCO, TIPI_NODO, TIPO_ARCO_LABELS, TIPO_NODO_LABELS } from '../verifications.vocabulary';
import { Fraction } from './fraction';
import { structureSvg } from './structure.graph';
import { latestCalculation, structureEdges, structureNodes, type CalculationRow } from './structure.repo';
import { UBO_CRITERION_LABELS, UBO_RULE_LABELS, UBO_WARNING_LABELS } from './ubo.labels';
import type { UboMethodResult, UboWarning } from './ubo.types';

/** The structure as the API answers it. */
export async function structureData(trx: Knex.Transaction, codAzienda: string, v: VerificationRow) {
  // One transaction, one connection: the reads go one after the other.
  const nodi = await structureNodes(trx, codAzienda, v.id);
  const archi = await structureEdges(trx, codAzienda, v.id);
  const calcolo = await latestCalculation(trx, codAzienda, v.id);
  return { cod_verifica: v.cod_verifica, nodi, archi, calcolo: calcolo ?? null, discrepanza_ubo: v.discrepanza_ubo, discrepanze_ubo: (v.discrepanze_ubo ?? []) as never[] };
}

/**
 * A stored share as shown: from its exact fraction when the result kept one (the rounded number
 * could read 25% for 25,0000125%), through the one share formatter, against the calculation's threshold.
 */
const share = (percentuale: number | null, frazione: string | null | undefined, soglia: number) =>
  (percentuale === null ? null : quota(Fraction.parse(frazione) ?? percentuale, soglia));

/** A method's owners as the page's table reads them: rules in Italian, figures formatted, paths as text. */
function ownersTable(m: UboMethodResult, soglia: number) {
  return {
    criterio: UBO_CRITERION_LABELS[m.criterio],
    note: m.note,
    titolari: m.titolari.map((o) => ({
      nodo_id: o.nodo_id, denominazione: o.denominazione, codice_fiscale: o.codice_fiscale,
      // A result stored before owners kept their fraction: the ownership reason has it.
      percentuale: share(o.percentuale, o.frazione ?? o.motivi.find((r) => r.percentuale === o.percentuale && r.frazione)?.frazione, soglia),
      motivi: o.motivi.map((r) => ({
        regola: UBO_RULE_LABELS[r.regola], riferimento: r.riferimento, spiegazione: r.spiegazione, frazione: r.frazione,
        percorsi: r.percorsi.map((p) => ({ nodi: p.nodi.join(' → '), testo: p.testo, percentuale: share(p.percentuale, p.frazione, soglia), frazione: p.frazione })),
      })),
    })),
  };
}

/** A structured warning as the page reads it: its title, its sentence, and each entity concerned. */
const warningView = (w: UboWarning) => ({ codice: w.codice, titolo: UBO_WARNING_LABELS[w.codice], messaggio: w.messaggio, riferimento: w.riferimento, soggetti: w.soggetti });

function calculationView(c: CalculationRow) {
  const r = c.risultato;
  return {
    soglia: quota(c.soglia), created_at: c.created_at, created_by: c.created_by, nodi: c.nodi, archi: c.archi,
    italiano: ownersTable(r.italiano, c.soglia), moltiplicativo: ownersTable(r.moltiplicativo, c.soglia),
    differenze: r.differenze,
    quote: r.quote.map((q) => ({
      denominazione: q.denominazione, italiano: quota(q.italiano, c.soglia), moltiplicativo: share(q.moltiplicativo, q.moltiplicativo_frazione, c.soglia), frazione: q.moltiplicativo_frazione,
    })),
    avvertenze: r.avvertenze, avvisi: (r.avvisi ?? []).map(warningView), discrepanze: c.discrepanze,
  };
}

export interface StructureFormState { form: 'nodo' | 'arco' | 'calcolo'; values: Record<string, string>; errors: Record<string, string> }

/**
 * What views/verifiche/structure/section.njk renders (part console includes it in the KYB page):
 * nodes, edges, the drawing with the latest calculation's Italian owners highlighted, both
 * methods' owners with their paths, the differences, the discrepancy with the declared owners,
 * and the forms' options, values and errors.
 */
export async function structureView(trx: Knex.Transaction, codAzienda: string, verificaId: string, opts: { canEdit?: boolean; form?: StructureFormState } = {}) {
  const v = await trx('verifiche').where({ cod_azienda: codAzienda, id: verificaId }).first() as VerificationRow | undefined;
  if (!v) return null;
  const nodes = await structureNodes(trx, codAzienda, v.id);
  const edges = await structureEdges(trx, codAzienda, v.id);
  const calc = await latestCalculation(trx, codAzienda, v.id);
  const name = new Map(nodes.map((n) => [n.id, n.denominazione]));
  const owners = new Set(calc?.risultato.italiano.titolari.map((o) => o.nodo_id) ?? []);
  const open = v.stato === 'pending' || v.stato === 'in_progress';
  const nodeOptions = [{ value: '', label: 'Scegli…' }, ...nodes.map((n) => ({ value: n.id, label: `${n.denominazione} (${TIPO_NODO_LABELS[n.tipo].toLowerCase()})` }))];
  return {
    cod_verifica: v.cod_verifica,
    base: `/admin/kyb/${v.cod_verifica}/struttura`,
    nodi: nodes.map((n) => ({ ...n, tipoLabel: TIPO_NODO_LABELS[n.tipo] })),
    archi: edges.map((e) => ({
      ...e, da: name.get(e.da_nodo_id) ?? '', a: name.get(e.a_nodo_id) ?? '', tipoLabel: TIPO_ARCO_LABELS[e.tipo],
      percentualeLabel: e.percentuale === null ? '' : quota(e.percentuale), votiLabel: e.percentuale_voti === null ? '' : quota(e.percentuale_voti),
    })),
    svg: nodes.length ? await structureSvg(nodes, edges, owners) : null,
    description: `Struttura societaria di ${nodes.find((n) => n.radice)?.denominazione ?? v.cod_verifica}: ${nodes.length} ${nodes.length === 1 ? 'soggetto' : 'soggetti'}, ${edges.length} ${edges.length === 1 ? 'legame' : 'legami'}.`,
    calcolo: calc ? calculationView(calc) : null,
    discrepanza: v.discrepanza_ubo,
    canEdit: !!opts.canEdit && open,
    open,
    form: opts.form ?? null,
    tipiNodo: TIPI_NODO.map((t) => ({ value: t, label: TIPO_NODO_LABELS[t] })),
    tipiArco: TIPI_ARCO.map((t) => ({ value: t, label: TIPO_ARCO_LABELS[t] })),
    nodeOptions,
  };
}
export type StructureView = NonNullable<Awaited<ReturnType<typeof structureView>>>;
