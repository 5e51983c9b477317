import type { Knex } from 'knex';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { HttpError, notFound } from '../../http/errors';
import { redirectWithFlash, type Ctx } from '../../http/render';
import type { AppServices } from '../../kit/area';
import { staffActor } from '../../kit/actor';
import { isUuid } from '../../kit/ids';
import { CDD_OPEN_STATES, type CddTaskAction } from '../../../workflows/cdd/cdd-task.machine';
import {
  CLASSE_RISCHIO_LABELS, CLASSE_RISCHIO_TONES, EVIDENZA_TIPO_LABELS, LIVELLO_LABELS, LIVELLO_TONES, MATCH_STATO_LABELS, MATCH_STATO_TONES, MOTIVO_LABELS,
  QUESTIONARIO_STATO_LABELS, QUESTIONARIO_STATO_TONES, REJECTION_MESSAGES, REVISIONE_STATO_LABELS, REVISIONE_STATO_TONES, STATO_LABELS, STATO_TONES,
  TIPO_SOGGETTO_LABELS,
} from './cdd.labels';
import { customerSummary, type CustomerSummary } from './cdd.page-reads';
import { getCddTask, type CddTaskRow } from './cdd-task.repo';
import { cddAllowedActions, type CddDeps } from './cdd-task.commands';
import { cddDeps } from './cdd.service';

/** Every dictionary the CDD templates read (`labels.stato[t.stato]`...). */
export const PAGE_LABELS = {
  stato: STATO_LABELS, statoTone: STATO_TONES, livello: LIVELLO_LABELS, livelloTone: LIVELLO_TONES, motivo: MOTIVO_LABELS,
  classe: CLASSE_RISCHIO_LABELS, classeTone: CLASSE_RISCHIO_TONES, evidenza: EVIDENZA_TIPO_LABELS, questionario: QUESTIONARIO_STATO_LABELS,
  questionarioTone: QUESTIONARIO_STATO_TONES, revisione: REVISIONE_STATO_LABELS, revisioneTone: REVISIONE_STATO_TONES, tipoSoggetto: TIPO_SOGGETTO_LABELS,
  match: MATCH_STATO_LABELS, matchTone: MATCH_STATO_TONES,
};

export const formBody = (ctx: Ctx): Record<string, unknown> => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

const OPEN = new Set<string>(CDD_OPEN_STATES);
/** An open task past its due date. */
export const isOverdue = (t: Pick<CddTaskRow, 'stato' | 'due_at'>, now = new Date()) => OPEN.has(t.stato) && new Date(t.due_at).getTime() < now.getTime();

/** The actions the signed-in user may take on the task now (state, role, four-eyes, the analyst's completion policy). */
export const allowedFor = (ctx: Ctx, t: CddTaskRow): CddTaskAction[] => cddAllowedActions(t, staffActor(ctx.state.user!));

/** Who a task names, by user id (creator, assignee) or username (reviewer, evidence, audit actors): "Nome Cognome" under either key. */
export async function peopleNames(trx: Knex.Transaction, values: (string | null | undefined)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(values.filter((v): v is string => !!v))];
  if (!wanted.length) return {};
  const ids = wanted.filter(isUuid);
  const rows = await trx('utenti').where((w) => { w.whereIn('username', wanted); if (ids.length) w.orWhereIn('cod_utente', ids); })
    .select<{ cod_utente: string; username: string; nome: string; cognome: string }[]>('cod_utente', 'username', 'nome', 'cognome');
  const out: Record<string, string> = {};
  for (const r of rows) out[r.cod_utente] = out[r.username] = `${r.nome} ${r.cognome}`.trim() || r.username;
  return out;
}

/** The Italian message of a refused action, or undefined when the error is not a refusal of the process. */
export function refusalMessage(err: unknown): { code: string; message: string } | undefined {
  if (!(err instanceof HttpError) || err.status === 404) return undefined;
  const message = REJECTION_MESSAGES[err.code] ?? (err.status === 422 ? REJECTION_MESSAGES.MISSING_FIELDS : undefined);
  return message ? { code: err.code, message } : undefined;
}

/** The tenant transaction, the task by id or code (404 otherwise: another tenant's is not found), and the way back. */
export function cddPageKit({ deps }: Pick<AppServices, 'deps'>) {
  const tx = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  async function loadTask(ctx: Ctx, trx: Knex.Transaction, idOrCode: string): Promise<{ t: CddTaskRow; customer: CustomerSummary }> {
    const t = await getCddTask(trx, idOrCode);
    if (!t) throw notFound('Verifica');
    const customer = await customerSummary(trx, tenantOf(ctx), t.cod_anagrafe)
      ?? { cod_anagrafe: t.cod_anagrafe, nome: t.cod_anagrafe, tipo_soggetto: '', classe_rischio: null, codice_fiscale: null, partita_iva: null };
    return { t, customer };
  }

  /** Runs a page action: done, to `next` (default `back`) with `done`; refused by the process, to `back` with the reason; anything else propagates. */
  async function act(ctx: Ctx, to: { back: string; next?: string; done: string }, fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      const refusal = refusalMessage(err);
      if (refusal) return redirectWithFlash(ctx, to.back, 'danger', refusal.message);
      throw err;
    }
    redirectWithFlash(ctx, to.next ?? to.back, 'success', to.done);
  }

  /** The process client of the CDD commands (the Temporal connection is opened on first use). */
  const processDeps = (): Promise<CddDeps> => cddDeps(deps);

  return { tx, loadTask, act, processDeps };
}
