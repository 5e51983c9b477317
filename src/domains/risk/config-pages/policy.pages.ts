import { hasRole, tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { STAFF_READ } from '../../../kit/roles';
import { CLASSI } from '../risk.types';
import { addThreshold, changeThreshold, ensureModel, evaluatePolicyTrial, formProblem } from './config.commands';
import { CONFIG_EDITORS, formBody, readTx, typed } from './config.access';
import { newThresholdFormSchema, policyTrialSchema, thresholdFormSchema } from './config.forms';
import { APPROVAZIONE_LABELS, CLASSE_LABELS, CLASSE_TONES, LIVELLO_CDD_LABELS } from './config.labels';
import { thresholdRows, type SogliaRow } from './config.reads';

const labels = { classe: CLASSE_LABELS, classeTone: CLASSE_TONES, livello: LIVELLO_CDD_LABELS, approvazione: APPROVAZIONE_LABELS };
const options = {
  livello: Object.entries(LIVELLO_CDD_LABELS).map(([value, label]) => ({ value, label })),
  approvazione: Object.entries(APPROVAZIONE_LABELS).map(([value, label]) => ({ value, label })),
  floor: [{ value: '', label: 'Nessuna' }, ...CLASSI.map((c) => ({ value: c, label: CLASSE_LABELS[c] }))],
};

const valuesOf = (s: SogliaRow) => ({
  punteggio_min: String(s.punteggio_min), livello_cdd: s.livello_cdd, revisione_mesi: String(s.revisione_mesi), approvazione: s.approvazione, descrizione: s.descrizione,
});

/**
 * /rischio/policy: the thresholds that turn a score into a class and the class into its
 * consequences (CDD level, review frequency, who approves), and a small form that tries the
 * policy on a score without storing anything (the same logic as POST /api/risk/policy/evaluate).
 */
export const registerPolicyPages: RegisterRoutes = (router, { deps, views }) => {
  const renderList = async (ctx: Ctx, form: { values?: Record<string, string>; errors?: Record<string, string>; refusal?: string } = {}, status = 200) => {
    const soglie = await readTx(deps, ctx, async (trx) => {
      await ensureModel(trx, tenantOf(ctx));
      return thresholdRows(trx);
    });
    // The trial is a GET form: its answer is part of the page and can be linked.
    const asked = typeof ctx.query.punteggio === 'string';
    const trial = policyTrialSchema.safeParse(ctx.query);
    const prova = asked && trial.success ? await readTx(deps, ctx, (trx) => evaluatePolicyTrial(trx, tenantOf(ctx), trial.data.punteggio, trial.data.classe_minima)) : null;
    const missing = CLASSI.filter((c) => !soglie.some((s) => s.classe === c));
    render(ctx, views, 'rischio/config/policy.njk', {
      soglie, labels, options, missing: missing.map((c) => ({ value: c, label: CLASSE_LABELS[c] })),
      values: form.values ?? {}, errors: form.errors ?? {}, refusal: form.refusal ?? null,
      prova, provaValues: { punteggio: typeof ctx.query.punteggio === 'string' ? ctx.query.punteggio : '', classe_minima: typeof ctx.query.classe_minima === 'string' ? ctx.query.classe_minima : '' },
      provaErrors: asked && !trial.success ? fieldErrors(trial.error) : {},
      canEdit: hasRole(ctx.state.user, CONFIG_EDITORS),
    }, { status: asked && !trial.success ? 422 : status });
  };

  const renderEdit = (ctx: Ctx, s: SogliaRow, values: Record<string, string>, errors: Record<string, string> = {}, status = 200, refusal?: string) =>
    render(ctx, views, 'rischio/config/soglia.njk', { s, values, errors, refusal: refusal ?? null, labels, options, canEdit: hasRole(ctx.state.user, CONFIG_EDITORS) }, { status });

  const thresholdOf = async (ctx: Ctx) => {
    const id = ctx.params.id!;
    const s = isUuid(id) ? await readTx(deps, ctx, async (trx) => (await thresholdRows(trx)).find((x) => x.id === id)) : undefined;
    if (!s) throw notFound('Soglia');
    return s;
  };

  router.get('/rischio/policy', staff(STAFF_READ), (ctx) => renderList(ctx));

  router.post('/rischio/policy/nuovo', staff(CONFIG_EDITORS), async (ctx) => {
    const body = formBody(ctx);
    const parsed = newThresholdFormSchema.safeParse(body);
    if (!parsed.success) return renderList(ctx, { values: typed(body), errors: fieldErrors(parsed.error) }, 422);
    try {
      await addThreshold(deps, ctx, parsed.data);
    } catch (err) {
      const p = formProblem(err);
      return renderList(ctx, { values: typed(body), errors: p.errors, refusal: p.refusal }, p.status);
    }
    redirectWithFlash(ctx, '/rischio/policy', 'success', `Soglia della classe ${CLASSE_LABELS[parsed.data.classe]} creata`);
  });

  router.get('/rischio/policy/:id', staff(STAFF_READ), async (ctx) => {
    const s = await thresholdOf(ctx);
    await renderEdit(ctx, s, valuesOf(s));
  });

  router.post('/rischio/policy/:id', staff(CONFIG_EDITORS), async (ctx) => {
    const s = await thresholdOf(ctx);
    const body = formBody(ctx);
    const parsed = thresholdFormSchema.safeParse(body);
    if (!parsed.success) return renderEdit(ctx, s, typed(body), fieldErrors(parsed.error), 422);
    try {
      await changeThreshold(deps, ctx, s.id, parsed.data);
    } catch (err) {
      const p = formProblem(err);
      return renderEdit(ctx, s, typed(body), p.errors, p.status, p.refusal);
    }
    redirectWithFlash(ctx, '/rischio/policy', 'success', `Soglia della classe ${CLASSE_LABELS[s.classe]} aggiornata: vale per i prossimi calcoli`);
  });
};
