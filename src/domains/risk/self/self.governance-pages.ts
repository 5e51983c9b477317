import { tenantOf, hasRole } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { todayInRome } from '../../records';
import {
  activeLines, createControl, createDecision, kriIndicators, listControls, listDecisions, rafMetrics, recordKriMonth, recordTest, updateRafMetric,
} from './self.governance';
import { controlsByLine, listExercises } from './self.service';
import {
  CALCOLO_LABELS, ESITO_LABELS, ESITO_TONES, FREQUENZA_LABELS, GIUDIZIO_LABELS, KRI_STATO_LABELS, KRI_STATO_TONES, RAF_STATO_LABELS, RAF_STATO_TONES, UNITA_LABELS, VULNERABILITA_LABELS,
} from './self.labels';
import { suggestedVulnerability } from './self.matrix';
import { controlloSchema, decisioneSchema, ESITI, FREQUENZE, GIUDIZI, rafSchema, testSchema } from './self.schemas';
import { ensureSelfDefaults } from './self.seed';
import { formBody, tenantTx, WRITERS } from './self.pages';

const labels = {
  giudizio: GIUDIZIO_LABELS, esito: ESITO_LABELS, esitoTone: ESITO_TONES, frequenza: FREQUENZA_LABELS, vulnerabilita: VULNERABILITA_LABELS,
  calcolo: CALCOLO_LABELS, unita: UNITA_LABELS, raf: RAF_STATO_LABELS, rafTone: RAF_STATO_TONES, kri: KRI_STATO_LABELS, kriTone: KRI_STATO_TONES,
};
const opts = (values: readonly string[], l: Record<string, string>, placeholder?: string) =>
  [...(placeholder !== undefined ? [{ value: '', label: placeholder }] : []), ...values.map((v) => ({ value: v, label: l[v] ?? v }))];
const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
const notFoundUnlessUuid = (id: string, what: string) => { if (!isUuid(id)) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', `${what} non trovato`); };

interface PageProblem { form: string; errors?: Record<string, string>; values?: Record<string, unknown> }

/** Controls and their tests, the RAF, the KRIs and the decision log. */
export const registerSelfGovernancePages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof tenantTx<T>>[2]) => tenantTx(deps, ctx, fn);
  const canWrite = (ctx: Ctx) => hasRole(ctx.state.user, WRITERS);

  // Controls
  const renderControls = async (ctx: Ctx, problem?: PageProblem, status = 200) => {
    const data = await tx(ctx, async (trx) => {
      await ensureSelfDefaults(trx, tenantOf(ctx));
      // One transaction, one connection: the reads go one after the other.
      const controlli = await listControls(trx, tenantOf(ctx));
      const linee = await activeLines(trx, tenantOf(ctx));
      const byLine = await controlsByLine(trx, tenantOf(ctx));
      const suggerite = linee.map((l) => {
        const own = byLine.perLinea.get(l.id) ?? [];
        return { id: l.id, nome: l.nome, controlli: own.length + byLine.trasversali.length, vulnerabilita: suggestedVulnerability([...own, ...byLine.trasversali]) };
      });
      return { controlli, linee, suggerite };
    });
    render(ctx, views, 'rischio-self/controlli.njk', {
      ...data, labels, problem: problem ?? null, canWrite: canWrite(ctx), oggi: todayInRome(),
      options: {
        linea: [{ value: '', label: 'Tutte le linee (controllo trasversale)' }, ...data.linee.map((l) => ({ value: l.id, label: l.nome }))],
        frequenza: opts(FREQUENZE, FREQUENZA_LABELS, 'Scegli…'), giudizio: opts(GIUDIZI, GIUDIZIO_LABELS, 'Scegli…'), esito: opts(ESITI, ESITO_LABELS, 'Scegli…'),
      },
    }, { status });
  };
  router.get('/rischio/controlli', staff(STAFF_READ), (ctx) => renderControls(ctx));
  router.post('/rischio/controlli/nuovo', staff(WRITERS), async (ctx) => {
    const body = formBody(ctx);
    const p = controlloSchema.safeParse(body);
    if (!p.success) return renderControls(ctx, { form: 'nuovo', errors: fieldErrors(p.error), values: body }, 422);
    try {
      await tx(ctx, (trx) => createControl(trx, tenantOf(ctx), staffActor(ctx.state.user!), p.data));
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return renderControls(ctx, { form: 'nuovo', errors: { linea_id: 'Linea di business non trovata' }, values: body }, 422);
      throw err;
    }
    redirectWithFlash(ctx, '/rischio/controlli', 'success', 'Controllo aggiunto');
  });
  router.post('/rischio/controlli/:id/test', staff(WRITERS), async (ctx) => {
    const id = ctx.params.id!;
    notFoundUnlessUuid(id, 'Controllo');
    const body = formBody(ctx);
    const p = testSchema.safeParse(body);
    if (!p.success) return renderControls(ctx, { form: `test-${id}`, errors: fieldErrors(p.error), values: body }, 422);
    await tx(ctx, (trx) => recordTest(trx, tenantOf(ctx), staffActor(ctx.state.user!), id, p.data));
    redirectWithFlash(ctx, `/rischio/controlli#controllo-${id}`, 'success', 'Test registrato');
  });

  // RAF
  const renderRaf = async (ctx: Ctx, problem?: PageProblem, status = 200) => {
    const metriche = await tx(ctx, async (trx) => { await ensureSelfDefaults(trx, tenantOf(ctx)); return rafMetrics(trx, tenantOf(ctx), todayInRome()); });
    render(ctx, views, 'rischio-self/raf.njk', { metriche, labels, problem: problem ?? null, canWrite: canWrite(ctx) }, { status });
  };
  router.get('/rischio/raf', staff(STAFF_READ), (ctx) => renderRaf(ctx));
  router.post('/rischio/raf/:id', staff(WRITERS), async (ctx) => {
    const id = ctx.params.id!;
    notFoundUnlessUuid(id, 'Metrica');
    const body = formBody(ctx);
    const p = rafSchema.safeParse(body);
    if (!p.success) return renderRaf(ctx, { form: id, errors: fieldErrors(p.error), values: body }, 422);
    await tx(ctx, (trx) => updateRafMetric(trx, tenantOf(ctx), staffActor(ctx.state.user!), id, p.data));
    redirectWithFlash(ctx, `/rischio/raf#metrica-${id}`, 'success', 'Metrica aggiornata');
  });

  // KRI
  router.get('/rischio/kri', staff(STAFF_READ), async (ctx) => {
    const { indicatori, mesi } = await tx(ctx, async (trx) => { await ensureSelfDefaults(trx, tenantOf(ctx)); return kriIndicators(trx, tenantOf(ctx), todayInRome()); });
    const categorie = mesi.map((m) => new Date(`${m}T12:00:00Z`).toLocaleDateString('it-IT', { month: 'short', year: 'numeric', timeZone: 'Europe/Rome' }));
    // Only the months with a recorded value: a month never measured is not a zero.
    const trend = indicatori.map((k) => {
      const idx = k.serie.flatMap((v, i) => (v === null ? [] : [i]));
      return {
        id: k.id, categories: idx.map((i) => categorie[i]!),
        series: [
          { name: 'Valore', data: idx.map((i) => k.serie[i]!), tone: 'blue' },
          { name: 'Soglia ambra', data: idx.map(() => k.soglia_ambra), tone: 'orange' },
          { name: 'Soglia rossa', data: idx.map(() => k.soglia_rossa), tone: 'red' },
        ],
      };
    });
    render(ctx, views, 'rischio-self/kri.njk', { indicatori, trend, labels, canWrite: canWrite(ctx) });
  });
  router.post('/rischio/kri/rileva', staff(WRITERS), async (ctx) => {
    const n = await tx(ctx, async (trx) => { await ensureSelfDefaults(trx, tenantOf(ctx)); return recordKriMonth(trx, tenantOf(ctx), staffActor(ctx.state.user!), todayInRome()); });
    redirectWithFlash(ctx, '/rischio/kri', 'success', `Valori del mese rilevati per ${n} indicatori`);
  });

  // Decisions
  const renderDecisions = async (ctx: Ctx, problem?: PageProblem, status = 200) => {
    const data = await tx(ctx, async (trx) => {
      await ensureSelfDefaults(trx, tenantOf(ctx));
      const decisioni = await listDecisions(trx, tenantOf(ctx));
      const esercizi = await listExercises(trx, tenantOf(ctx));
      const metriche: { id: string; nome: string }[] = await trx('rischio_raf_metriche').where({ cod_azienda: tenantOf(ctx) }).orderBy('ordine').select('id', 'nome');
      return { decisioni, esercizi, metriche };
    });
    render(ctx, views, 'rischio-self/decisioni.njk', {
      ...data, problem: problem ?? null, canWrite: canWrite(ctx), oggi: todayInRome(),
      options: {
        autovalutazione: [{ value: '', label: 'Nessuna' }, ...data.esercizi.map((e) => ({ value: e.id, label: `Autovalutazione ${e.anno}` }))],
        metrica: [{ value: '', label: 'Nessuna' }, ...data.metriche.map((m) => ({ value: m.id, label: m.nome }))],
      },
    }, { status });
  };
  router.get('/rischio/decisioni', staff(STAFF_READ), (ctx) => renderDecisions(ctx));
  router.post('/rischio/decisioni/nuova', staff(WRITERS), async (ctx) => {
    const body = formBody(ctx);
    const p = decisioneSchema.safeParse(body);
    if (!p.success) return renderDecisions(ctx, { form: 'nuova', errors: fieldErrors(p.error), values: body }, 422);
    try {
      await tx(ctx, (trx) => createDecision(trx, tenantOf(ctx), staffActor(ctx.state.user!), p.data));
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) {
        return renderDecisions(ctx, { form: 'nuova', errors: { [err.detail?.startsWith('Metrica') ? 'metrica_id' : 'autovalutazione_id']: err.detail ?? 'Non trovato' }, values: body }, 422);
      }
      if (err instanceof ValidationError) return renderDecisions(ctx, { form: 'nuova', errors: Object.fromEntries(err.errors.map((e) => [e.path, e.message])), values: body }, 422);
      throw err;
    }
    redirectWithFlash(ctx, '/rischio/decisioni', 'success', 'Decisione registrata');
  });
};
