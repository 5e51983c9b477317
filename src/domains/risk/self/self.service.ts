import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { conflict, fourEyesRequired, notFound, ValidationError } from '../../../http/errors';
import { allowedActions } from '../../../../workflows/lib/machine';
import { decideInTransaction } from '../../../kit/process';
import { appendAudit } from '../../audit';
import { figuresWindow, lineFigures } from './self.figures';
import { REJECTION_MESSAGES } from './self.labels';
import { esercizioMachine, type EsercizioAction, type EsercizioStato } from './self.machine';
import {
  isLivello, overallResidual, residualRisk, suggestedInherent, suggestedVulnerability,
  type ControlloValutato, type FigureLinea, type Livello, type Residuo, type Suggerimento,
} from './self.matrix';
import { ensureSelfDefaults } from './self.seed';

export interface EsercizioRow {
  id: string; cod_azienda: string; anno: number; stato: EsercizioStato; note: string;
  created_by: string; submitted_by: string | null; submitted_at: Date | null; approved_by: string | null; approved_at: Date | null;
  snapshot: Snapshot | null; rischio_complessivo: Residuo | null; punteggio_complessivo: string | null;
}

export interface LineaValutata {
  id: string; linea_id: string; codice: string; nome: string; descrizione: string; motivazione_peso: string;
  tipi_rapporto: string[]; tipi_soggetto: string[]; rischio_base: Livello; peso: number;
  figure: FigureLinea; suggerimento: Suggerimento; vulnerabilita_suggerita: Livello; controlli: number;
  inerente: Livello | null; motivazione_inerente: string; vulnerabilita: Livello | null; motivazione_vulnerabilita: string; residuo: Residuo | null;
}

/** What an approved exercise keeps: its lines with their figures as they were, the window and the overall. */
export interface Snapshot { finestra: { da: string; a: string }; linee: LineaValutata[]; complessivo: ReturnType<typeof overallResidual> }

export interface EsercizioDetail {
  esercizio: EsercizioRow; linee: LineaValutata[]; finestra: { da: string; a: string };
  complessivo: ReturnType<typeof overallResidual>; frozen: boolean;
}

const MESSAGES = { FOUR_EYES_REQUIRED: REJECTION_MESSAGES.FOUR_EYES_REQUIRED };

export async function listExercises(trx: Knex.Transaction, codAzienda: string): Promise<EsercizioRow[]> {
  return trx('rischio_autovalutazioni').where({ cod_azienda: codAzienda }).orderBy('anno', 'desc').select('*');
}

async function exerciseOf(trx: Knex.Transaction, codAzienda: string, anno: number, lock = false): Promise<EsercizioRow> {
  const q = trx('rischio_autovalutazioni').where({ cod_azienda: codAzienda, anno }).first('*');
  const row = (await (lock ? q.forUpdate() : q)) as EsercizioRow | undefined;
  if (!row) throw notFound('Autovalutazione');
  return row;
}

/** The controls of a line (its own and the transversal ones) with their last test, as the vulnerability reads them. */
export async function controlsByLine(trx: Knex.Transaction, codAzienda: string): Promise<{ perLinea: Map<string, ControlloValutato[]>; trasversali: ControlloValutato[] }> {
  const rows = await trx('rischio_controlli as c').where('c.cod_azienda', codAzienda).where('c.attivo', true)
    .select('c.id', 'c.linea_id', 'c.disegno', 'c.efficacia', trx.raw(`(select t.esito from rischio_controlli_test t where t.cod_azienda = c.cod_azienda and t.controllo_id = c.id
      order by t.data desc, t.created_at desc limit 1) as ultimo_esito`));
  const perLinea = new Map<string, ControlloValutato[]>();
  const trasversali: ControlloValutato[] = [];
  for (const r of rows) {
    const c: ControlloValutato = { disegno: r.disegno, efficacia: r.efficacia, ultimoEsito: r.ultimo_esito ?? null };
    if (!r.linea_id) trasversali.push(c);
    else perLinea.set(r.linea_id, [...(perLinea.get(r.linea_id) ?? []), c]);
  }
  return { perLinea, trasversali };
}

/** The lines of an exercise with live figures and suggestions (a draft or one waiting for approval). */
async function liveLines(trx: Knex.Transaction, e: EsercizioRow, oggi: string): Promise<{ linee: LineaValutata[]; finestra: { da: string; a: string } }> {
  const rows = await trx('rischio_autovalutazioni_linee as v').join('rischio_linee as l', 'l.id', 'v.linea_id')
    .where('v.autovalutazione_id', e.id).where('v.cod_azienda', e.cod_azienda).orderBy([{ column: 'l.ordine' }, { column: 'l.codice' }])
    .select('v.*', 'l.codice', 'l.nome', 'l.descrizione', 'l.motivazione_peso', 'l.tipi_rapporto', 'l.tipi_soggetto', 'l.rischio_base');
  const finestra = figuresWindow(e.anno, oggi);
  const figures = await lineFigures(trx, e.cod_azienda, rows.map((r) => ({ id: r.linea_id, tipi_rapporto: r.tipi_rapporto, tipi_soggetto: r.tipi_soggetto })), finestra);
  const { perLinea, trasversali } = await controlsByLine(trx, e.cod_azienda);
  const linee = rows.map((r): LineaValutata => {
    const figure = figures.get(r.linea_id)!;
    const controlli = [...(perLinea.get(r.linea_id) ?? []), ...trasversali];
    return {
      id: r.id, linea_id: r.linea_id, codice: r.codice, nome: r.nome, descrizione: r.descrizione, motivazione_peso: r.motivazione_peso,
      tipi_rapporto: r.tipi_rapporto, tipi_soggetto: r.tipi_soggetto, rischio_base: r.rischio_base, peso: Number(r.peso),
      figure, suggerimento: suggestedInherent(r.rischio_base, figure), vulnerabilita_suggerita: suggestedVulnerability(controlli), controlli: controlli.length,
      inerente: r.inerente, motivazione_inerente: r.motivazione_inerente, vulnerabilita: r.vulnerabilita, motivazione_vulnerabilita: r.motivazione_vulnerabilita, residuo: r.residuo,
    };
  });
  return { linee, finestra };
}

/** One exercise: an approved one from its frozen snapshot, any other with the portfolio's live figures. */
export async function exerciseDetail(trx: Knex.Transaction, codAzienda: string, anno: number, oggi: string): Promise<EsercizioDetail> {
  const esercizio = await exerciseOf(trx, codAzienda, anno);
  if (esercizio.stato === 'approvata' && esercizio.snapshot) {
    const s = esercizio.snapshot;
    return { esercizio, linee: s.linee, finestra: s.finestra, complessivo: s.complessivo, frozen: true };
  }
  const { linee, finestra } = await liveLines(trx, esercizio, oggi);
  return { esercizio, linee, finestra, complessivo: overallResidual(linee), frozen: false };
}

export function exerciseActions(e: EsercizioRow, actor: MachineActor): EsercizioAction[] {
  // The author may not approve either: the machine checks the submitter, this the author.
  return allowedActions(esercizioMachine, e.stato, actor, { ...e }).filter((a) => a !== 'approva' || e.created_by !== actor.id);
}

/**
 * A new exercise for a year: the active lines with their weights and, from the most recent
 * earlier exercise, the last choices (inherent risk, vulnerability and their reasons). One per year.
 */
export async function createExercise(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, anno: number): Promise<EsercizioRow> {
  await ensureSelfDefaults(trx, codAzienda);
  const id = randomUUID();
  // One per year: a second request (even a concurrent one) finds the year taken and gets 409.
  const inserted = await trx('rischio_autovalutazioni').insert({ id, cod_azienda: codAzienda, anno, stato: 'bozza', created_by: actor.id })
    .onConflict(['cod_azienda', 'anno']).ignore().returning('id');
  if (!inserted.length) throw conflict('EXERCISE_EXISTS', `L'autovalutazione ${anno} esiste già`, { anno });
  const linee = await trx('rischio_linee').where({ cod_azienda: codAzienda, attiva: true }).select('id', 'peso', 'rischio_base');
  const previous = await trx('rischio_autovalutazioni').where({ cod_azienda: codAzienda }).where('anno', '<', anno).orderBy('anno', 'desc').first('id');
  const last = previous
    ? new Map((await trx('rischio_autovalutazioni_linee').where({ autovalutazione_id: previous.id, cod_azienda: codAzienda }).select('*')).map((r) => [r.linea_id, r]))
    : new Map();
  if (linee.length) {
    await trx('rischio_autovalutazioni_linee').insert(linee.map((l) => {
      const p = last.get(l.id);
      const inerente = p?.inerente ?? null;
      const vulnerabilita = p?.vulnerabilita ?? null;
      return {
        id: randomUUID(), cod_azienda: codAzienda, autovalutazione_id: id, linea_id: l.id, peso: l.peso,
        // The earlier choice is carried over as the reference it was chosen against.
        inerente_suggerito: inerente === null ? null : (p?.inerente_suggerito ?? inerente), inerente,
        motivazione_inerente: p?.motivazione_inerente ?? '', vulnerabilita_suggerita: p?.vulnerabilita_suggerita ?? null, vulnerabilita,
        motivazione_vulnerabilita: p?.motivazione_vulnerabilita ?? '',
        residuo: inerente && vulnerabilita ? residualRisk(inerente, vulnerabilita) : null, updated_by: actor.id,
      };
    }));
  }
  await appendAudit(trx, { codAzienda, actor: actor.username, action: 'rischio_autovalutazione.create', entityType: 'rischio_autovalutazione', entityId: id, data: { anno, linee: linee.length, da: previous?.id ?? null } });
  return exerciseOf(trx, codAzienda, anno);
}

export interface LineChoice { inerente: number; motivazione_inerente: string; vulnerabilita: number; motivazione_vulnerabilita: string; peso: number }

/** Refuses any change to an approved exercise with the frozen message (409), else decides the machine's step. */
function decide(e: EsercizioRow, action: EsercizioAction, actor: MachineActor, input: Record<string, unknown> = {}) {
  if (e.stato === 'approvata') throw conflict('FROZEN', REJECTION_MESSAGES.FROZEN!, { state: e.stato, action, allowed_actions: [] });
  return decideInTransaction(esercizioMachine, { state: e.stato, action, actor, record: { ...e }, input, messages: MESSAGES });
}

/**
 * The chosen values of one line in a draft: the inherent risk (a reason when it differs from the
 * one the figures suggest now), the vulnerability, the weight; the residual risk follows.
 */
export async function saveLine(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, anno: number, lineaId: string, choice: LineChoice, oggi: string): Promise<void> {
  const e = await exerciseOf(trx, codAzienda, anno, true);
  decide(e, 'modifica', actor);
  const { linee } = await liveLines(trx, e, oggi);
  const l = linee.find((x) => x.id === lineaId);
  if (!l) throw notFound('Linea di business');
  if (!isLivello(choice.inerente) || !isLivello(choice.vulnerabilita)) throw new ValidationError([{ path: 'inerente', message: 'Scegli un livello da 1 a 4' }]);
  const suggerito = l.suggerimento.livello;
  if (choice.inerente !== suggerito && !choice.motivazione_inerente.trim()) {
    throw new ValidationError([{ path: 'motivazione_inerente', message: 'Spiega perché scegli un rischio inerente diverso da quello suggerito dai dati' }]);
  }
  const residuo = residualRisk(choice.inerente, choice.vulnerabilita);
  await trx('rischio_autovalutazioni_linee').where({ id: lineaId, cod_azienda: codAzienda }).update({
    inerente_suggerito: suggerito, inerente: choice.inerente, motivazione_inerente: choice.motivazione_inerente,
    vulnerabilita_suggerita: l.vulnerabilita_suggerita, vulnerabilita: choice.vulnerabilita, motivazione_vulnerabilita: choice.motivazione_vulnerabilita,
    residuo, peso: choice.peso, updated_by: actor.id, updated_at: trx.fn.now(),
  });
  await trx('rischio_autovalutazioni').where({ id: e.id }).update({ updated_at: trx.fn.now() });
  await appendAudit(trx, {
    codAzienda, actor: actor.username, action: 'rischio_autovalutazione.linea', entityType: 'rischio_autovalutazione', entityId: e.id,
    data: { anno, linea: l.codice, inerente_suggerito: suggerito, inerente: choice.inerente, vulnerabilita: choice.vulnerabilita, residuo, peso: choice.peso },
  });
}

/** Submit, approve or send back. Approval freezes the exercise: the lines and their figures as they are now. */
export async function transitionExercise(trx: Knex.Transaction, codAzienda: string, actor: MachineActor, anno: number,
  action: Exclude<EsercizioAction, 'modifica'>, input: { reason?: string; note?: string } = {}, oggi: string): Promise<EsercizioStato> {
  const e = await exerciseOf(trx, codAzienda, anno, true);
  const to = decide(e, action, actor, { ...input });
  const now = trx.fn.now();
  if (action === 'invia') {
    const { linee } = await liveLines(trx, e, oggi);
    if (!linee.length || linee.some((l) => l.residuo === null)) throw conflict('INCOMPLETE', REJECTION_MESSAGES.INCOMPLETE!, { state: e.stato, allowed_actions: ['modifica'] });
    await trx('rischio_autovalutazioni').where({ id: e.id }).update({ stato: to, submitted_by: actor.id, submitted_at: now, note: input.note ?? e.note, updated_at: now });
  } else if (action === 'approva') {
    if (e.created_by === actor.id) throw fourEyesRequired(REJECTION_MESSAGES.FOUR_EYES_REQUIRED);
    const { linee, finestra } = await liveLines(trx, e, oggi);
    const complessivo = overallResidual(linee);
    const snapshot: Snapshot = { finestra, linee, complessivo };
    await trx('rischio_autovalutazioni').where({ id: e.id }).update({
      stato: to, approved_by: actor.id, approved_at: now, snapshot: JSON.stringify(snapshot),
      rischio_complessivo: complessivo!.residuo, punteggio_complessivo: complessivo!.punteggio, updated_at: now,
    });
  } else {
    await trx('rischio_autovalutazioni').where({ id: e.id }).update({ stato: to, submitted_by: null, submitted_at: null, updated_at: now });
  }
  await appendAudit(trx, {
    codAzienda, actor: actor.username, action: `rischio_autovalutazione.${action}`, entityType: 'rischio_autovalutazione', entityId: e.id,
    data: { anno, stato: to, ...(input.reason ? { motivazione: input.reason } : {}) },
  });
  return to;
}
