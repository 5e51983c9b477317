import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { stateDiagramView } from '../../../http/state-diagram';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { AppServices, RegisterRoutes } from '../../../kit/area';
import { STAFF_READ, type Role } from '../../../kit/roles';
import { userNames } from '../../../kit/users';
import { appendAudit } from '../../audit';
import { todayInRome } from '../../records';
import {
  AZIONE_LABELS, INDICATORE_LABELS, LIVELLO_LABELS, REJECTION_MESSAGES, RESIDUO_LABELS, RESIDUO_TONES, STATO_LABELS, STATO_TONES, VULNERABILITA_LABELS,
} from './self.labels';
import { esercizioMachine, SELF_WRITERS } from './self.machine';
import { LIVELLI, MATRICE_RESIDUO, RESIDUI } from './self.matrix';
import { annoSchema, inviaSchema, lineaSchema, respingiSchema } from './self.schemas';
import { createExercise, exerciseActions, exerciseDetail, listExercises, saveLine, transitionExercise } from './self.service';
import { ensureSelfDefaults } from './self.seed';
import { exportPdf, exportXlsx } from './self.export';

export const WRITERS: Role[] = [...SELF_WRITERS];
/** The auditor reads and exports; so do the ones who write it. */
export const EXPORTERS: Role[] = ['admin', 'co', 'auditor'];

export const labels = {
  livello: LIVELLO_LABELS, vulnerabilita: VULNERABILITA_LABELS, residuo: RESIDUO_LABELS, residuoTone: RESIDUO_TONES,
  stato: STATO_LABELS, statoTone: STATO_TONES, indicatore: INDICATORE_LABELS,
};
export const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
export const tenantTx = <T>(deps: AppServices['deps'], ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

/** The year a path names: anything that is not a plausible year is simply not an exercise (404). */
const annoOf = (ctx: Ctx): number => {
  const a = Number(ctx.params.anno);
  if (!Number.isInteger(a) || a < 2000 || a > 2100) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Autovalutazione non trovata');
  return a;
};

interface PageProblem { form: string; errors?: Record<string, string>; values?: Record<string, unknown>; message?: string }

const errorsOf = (err: HttpError) => (err instanceof ValidationError ? Object.fromEntries(err.errors.map((e) => [e.path === 'reason' ? 'motivazione' : e.path, e.message])) : undefined);

/** The self-assessment pages: the exercises by year, the current one's lines, its approval and export; the residual matrix. */
export const registerSelfAssessmentPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => tenantTx(deps, ctx, fn);

  const renderPage = async (ctx: Ctx, annoScelto: number | undefined, problem?: PageProblem, status = 200) => {
    const oggi = todayInRome();
    const actor = staffActor(ctx.state.user!);
    const data = await tx(ctx, async (trx) => {
      await ensureSelfDefaults(trx, tenantOf(ctx));
      const esercizi = await listExercises(trx, tenantOf(ctx));
      const anno = annoScelto ?? esercizi[0]?.anno;
      const detail = anno !== undefined && esercizi.some((e) => e.anno === anno) ? await exerciseDetail(trx, tenantOf(ctx), anno, oggi) : null;
      if (annoScelto !== undefined && !detail) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Autovalutazione non trovata');
      const names = detail ? await userNames(trx, [detail.esercizio.created_by, detail.esercizio.submitted_by, detail.esercizio.approved_by]) : {};
      return { esercizi, detail, names };
    });
    const d = data.detail;
    const allowed = d ? exerciseActions(d.esercizio, actor) : [];
    const diagram = d ? await stateDiagramView(esercizioMachine, {
      current: d.esercizio.stato, allowed, labels: { states: STATO_LABELS, actions: AZIONE_LABELS }, title: 'Diagramma degli stati dell\'autovalutazione',
    }) : null;
    const isAuthor = d ? d.esercizio.created_by === actor.id || d.esercizio.submitted_by === actor.id : false;
    render(ctx, views, 'rischio-self/autovalutazione.njk', {
      ...data, allowed, diagram, labels, problem: problem ?? null, livelli: LIVELLI,
      canWrite: hasRole(ctx.state.user, WRITERS), canExport: hasRole(ctx.state.user, EXPORTERS),
      fourEyesNote: d?.esercizio.stato === 'in_approvazione' && hasRole(ctx.state.user, ['co']) && isAuthor ? REJECTION_MESSAGES.FOUR_EYES_REQUIRED : null,
      // The year a new exercise is proposed for: this year, or the one after the latest when this one exists.
      annoNuovo: data.esercizi.some((x) => x.anno === Number(oggi.slice(0, 4))) ? Math.max(...data.esercizi.map((x) => x.anno)) + 1 : Number(oggi.slice(0, 4)),
    }, { status });
  };

  router.get('/rischio/autovalutazione', staff(STAFF_READ), async (ctx) => {
    const q = typeof ctx.query.anno === 'string' && ctx.query.anno ? annoSchema.safeParse({ anno: ctx.query.anno }) : undefined;
    if (q && !q.success) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Autovalutazione non trovata');
    await renderPage(ctx, q?.data.anno);
  });

  router.post('/rischio/autovalutazione/nuova', staff(WRITERS), async (ctx) => {
    const body = formBody(ctx);
    const parsed = annoSchema.safeParse(body);
    if (!parsed.success) return renderPage(ctx, undefined, { form: 'nuova', errors: fieldErrors(parsed.error), values: body }, 422);
    try {
      await tx(ctx, (trx) => createExercise(trx, tenantOf(ctx), staffActor(ctx.state.user!), parsed.data.anno));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 409) throw err;
      return renderPage(ctx, undefined, { form: 'nuova', errors: { anno: err.detail ?? err.title }, values: body }, 409);
    }
    redirectWithFlash(ctx, `/rischio/autovalutazione?anno=${parsed.data.anno}`, 'success', `Autovalutazione ${parsed.data.anno} creata: le linee e le ultime scelte sono state riprese`);
  });

  router.post('/rischio/autovalutazione/:anno/linee/:id', staff(WRITERS), async (ctx) => {
    const anno = annoOf(ctx);
    const id = ctx.params.id!;
    const body = formBody(ctx);
    const parsed = lineaSchema.safeParse(body);
    if (!parsed.success) return renderPage(ctx, anno, { form: id, errors: fieldErrors(parsed.error), values: body }, 422);
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Linea di business non trovata');
    try {
      await tx(ctx, (trx) => saveLine(trx, tenantOf(ctx), staffActor(ctx.state.user!), anno, id, parsed.data, todayInRome()));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
      const errors = errorsOf(err);
      return renderPage(ctx, anno, { form: errors ? id : 'azioni', errors, values: body, message: errors ? undefined : (err.detail ?? err.title) }, err.status);
    }
    redirectWithFlash(ctx, `/rischio/autovalutazione?anno=${anno}#linea-${id}`, 'success', 'Valutazione della linea salvata');
  });

  const step = (path: string, action: 'invia' | 'approva' | 'respingi', done: string) =>
    router.post(`/rischio/autovalutazione/:anno/${path}`, staff(action === 'invia' ? WRITERS : ['co']), async (ctx) => {
      const anno = annoOf(ctx);
      const body = formBody(ctx);
      let input: { reason?: string; note?: string } = {};
      if (action === 'respingi') {
        const p = respingiSchema.safeParse(body);
        if (!p.success) return renderPage(ctx, anno, { form: 'respingi', errors: fieldErrors(p.error), values: body }, 422);
        input = { reason: p.data.motivazione };
      } else if (action === 'invia') {
        const p = inviaSchema.safeParse(body);
        if (!p.success) return renderPage(ctx, anno, { form: 'invia', errors: fieldErrors(p.error), values: body }, 422);
        input = { note: p.data.note };
      }
      try {
        await tx(ctx, (trx) => transitionExercise(trx, tenantOf(ctx), staffActor(ctx.state.user!), anno, action, input, todayInRome()));
      } catch (err) {
        if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
        const errors = errorsOf(err);
        return renderPage(ctx, anno, { form: errors ? action : 'azioni', errors, values: body, message: errors ? undefined : (err.detail ?? err.title) }, err.status);
      }
      redirectWithFlash(ctx, `/rischio/autovalutazione?anno=${anno}`, 'success', done);
    });
  step('invia', 'invia', 'Autovalutazione inviata in approvazione: serve l\'approvazione di un altro responsabile antiriciclaggio');
  step('approva', 'approva', 'Autovalutazione approvata: i dati sono congelati');
  step('respingi', 'respingi', 'Autovalutazione riportata in bozza');

  const exportRoute = (ext: 'pdf' | 'xlsx') =>
    router.get(`/rischio/autovalutazione/:anno/export.${ext}`, staff(EXPORTERS), async (ctx) => {
      const anno = annoOf(ctx);
      const { detail, names, azienda } = await tx(ctx, async (trx) => {
        const d = await exerciseDetail(trx, tenantOf(ctx), anno, todayInRome());
        await appendAudit(trx, {
          codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, action: 'rischio_autovalutazione.export', entityType: 'rischio_autovalutazione', entityId: d.esercizio.id, data: { anno, formato: ext },
        });
        const az = await trx('aziende').where({ cod_azienda: tenantOf(ctx) }).first('ragione_sociale');
        return { detail: d, names: await userNames(trx, [d.esercizio.created_by, d.esercizio.submitted_by, d.esercizio.approved_by]), azienda: String(az?.ragione_sociale ?? tenantOf(ctx)) };
      });
      ctx.set('Content-Disposition', `attachment; filename="autovalutazione-${anno}.${ext}"`);
      ctx.set('Cache-Control', 'no-store');
      if (ext === 'pdf') {
        ctx.type = 'application/pdf';
        ctx.body = await exportPdf(detail, names, azienda);
      } else {
        ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
        ctx.body = await exportXlsx(detail, names, azienda);
      }
    });
  exportRoute('pdf');
  exportRoute('xlsx');

  router.get('/rischio/residuo', staff(STAFF_READ), async (ctx) => {
    const q = typeof ctx.query.anno === 'string' && ctx.query.anno ? annoSchema.safeParse({ anno: ctx.query.anno }) : undefined;
    if (q && !q.success) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Autovalutazione non trovata');
    const data = await tx(ctx, async (trx) => {
      const esercizi = await listExercises(trx, tenantOf(ctx));
      const anno = q?.data.anno ?? esercizi[0]?.anno;
      if (q && !esercizi.some((e) => e.anno === anno)) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Autovalutazione non trovata');
      return { esercizi, detail: anno !== undefined && esercizi.length ? await exerciseDetail(trx, tenantOf(ctx), anno, todayInRome()) : null };
    });
    // The grid as the provisions draw it: the most significant inherent risk on top.
    const righe = [...LIVELLI].reverse().map((inerente) => ({
      inerente,
      celle: LIVELLI.map((vulnerabilita) => ({
        vulnerabilita, residuo: MATRICE_RESIDUO[inerente - 1]![vulnerabilita - 1]!,
        linee: (data.detail?.linee ?? []).filter((l) => l.inerente === inerente && l.vulnerabilita === vulnerabilita),
      })),
    }));
    const nonValutate = (data.detail?.linee ?? []).filter((l) => l.residuo === null);
    render(ctx, views, 'rischio-self/residuo.njk', { ...data, righe, nonValutate, labels, livelli: LIVELLI, residui: RESIDUI });
  });
};
