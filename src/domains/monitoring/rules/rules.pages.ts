import { withTenant } from '../../../db/tenant';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { userNames } from '../../../kit/users';
import { testo } from '../../../http/text-field';
import { describeMonitoringCondition } from '../monitoring.conditions';
import { subIndice } from '../monitoring.indicators';
import { RULE_EDITORS, RULE_RETIRERS } from '../monitoring.access';
import {
  AMBITO_LABELS, ESITO_REGOLA_LABELS, LIVELLO_LABELS, STATO_VERSIONE_LABELS, STATO_VERSIONE_TONES, TIPOLOGIA_LABELS,
} from '../monitoring.labels';
import { isTipologia, TIPOLOGIE } from '../monitoring.typologies';
import { buildCondition, conditionToRows, emptyRow, readBuilder, type BuilderState } from './rules.builder';
import { createRule, discardDraft, retireRule, updateRuleDraft } from './rules.commands';
import { checkRuleForm, formOptions, OPERATORE_LABELS, preview, rowControlName } from './rules.form';
import { listRules, ruleDetail, type VersionRow } from './rules.repo';
import { ruleActor } from './rules.routes';
import { createRuleSchema, listRulesQuery, updateRuleSchema } from './rules.schemas';
import { STARTERS } from './rules.starters';

const labels = {
  tipologia: TIPOLOGIA_LABELS, ambito: AMBITO_LABELS, livello: LIVELLO_LABELS, esito: ESITO_REGOLA_LABELS, stato: STATO_VERSIONE_LABELS, statoTone: STATO_VERSIONE_TONES,
  operatore: OPERATORE_LABELS,
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const typed = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== '_csrf' && !/^r\d+_/.test(k)));
const pretty = (c: unknown) => JSON.stringify(c, null, 2);
const RETIRE_REASON = testo({ max: 2_000, multiline: true, vuoto: 'Indica perché la regola viene ritirata' });

/** The builder's state for a stored condition: its rows, or JSON when the builder cannot show it. */
const stateOf = (c: unknown): BuilderState => {
  const rows = conditionToRows(c);
  return rows ? { modo: 'costruttore', json: pretty(c), ...rows } : { modo: 'json', combinatore: 'tutti', righe: [], json: pretty(c) };
};
const versionValues = (v: VersionRow, rule: { nome: string; tipologia: string }) => ({
  nome: rule.nome, tipologia: rule.tipologia, descrizione: v.descrizione, ambito: v.ambito, livello: v.livello, punteggio: String(v.punteggio), esito: v.esito,
  finestra_dedup_giorni: String(v.finestra_dedup_giorni), indicatori: v.indicatori,
});

/**
 * A builder step that saves nothing: a row added or removed, the JSON view opened or closed. The
 * answer is the same form with the change, so the page works without JavaScript.
 */
function applyStep(state: BuilderState, azione: string): { state: BuilderState; general: string[] } {
  if (azione === 'aggiungi_campo' || azione === 'aggiungi_aggregato') {
    return { state: { ...state, righe: [...state.righe, emptyRow(azione === 'aggiungi_campo' ? 'campo' : 'aggregato')] }, general: [] };
  }
  const remove = /^rimuovi_(\d+)$/.exec(azione);
  if (remove) return { state: { ...state, righe: state.righe.filter((_, i) => i !== Number(remove[1])) }, general: [] };
  // The condition as the rows make it now, problems included: the expert fixes them in the JSON.
  if (azione === 'modo_json') return { state: { ...state, modo: 'json', json: pretty(buildCondition(state).condizione) }, general: [] };
  if (azione === 'modo_costruttore') {
    let parsed: unknown;
    try { parsed = JSON.parse(state.json); } catch (err) { return { state, general: [`JSON non valido: ${(err as Error).message}`] }; }
    const rows = conditionToRows(parsed);
    if (!rows) return { state, general: ['Questa condizione ha gruppi annidati o filtri che il costruttore non mostra: modificala come JSON'] };
    return { state: { ...state, modo: 'costruttore', ...rows }, general: [] };
  }
  return { state, general: [] };
}

/** The monitoring rules' pages (/monitoraggio/regole): list, one rule with its versions, and the builder. */
export const registerRulePages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/monitoraggio/regole', staff(STAFF_READ), async (ctx) => {
    const parsed = listRulesQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listRulesQuery.parse({});
    const result = await tx(ctx, (trx) => listRules(trx, tenantOf(ctx), q));
    const filters = { tipologia: q.tipologia ?? '', attiva: q.attiva === undefined ? '' : String(q.attiva), bozza: q.bozza === undefined ? '' : String(q.bozza), sort: q.sort };
    render(ctx, views, 'monitoraggio/regole/list.njk', {
      result, filters, labels, canEdit: hasRole(ctx.state.user, RULE_EDITORS), tipologie: TIPOLOGIE.map((t) => ({ value: t, label: TIPOLOGIA_LABELS[t] })),
    }, { fragment: 'monitoraggio/regole/_table.njk' });
  });

  type Mode = { kind: 'new' } | { kind: 'edit'; id: string; cod: string; versione: number | null; fromActive: boolean };
  const renderForm = (ctx: Ctx, mode: Mode, values: Record<string, unknown>, state: BuilderState,
    problems: { errors?: Record<string, string>; rows?: Record<string, string>; general?: string[]; refusal?: string } = {}, status = 200) => {
    render(ctx, views, 'monitoraggio/regole/form.njk', {
      mode, values, builder: state, errors: problems.errors ?? {}, rowErrors: problems.rows ?? {}, general: problems.general ?? [], refusal: problems.refusal ?? null,
      anteprima: preview(state), options: formOptions(), labels,
      // A refused save reloads the page at its top, far from the rows: say so there, each problem linked to its control.
      notSaved: status === 422 && Object.keys(problems.rows ?? {}).length
        ? Object.entries(problems.rows!).map(([id, message]) => ({ id, text: `${rowControlName(id)}: ${message}` })) : [],
      selectedIndicatori: Array.isArray(values.indicatori) ? values.indicatori : typeof values.indicatori === 'string' ? [values.indicatori] : [],
      action: mode.kind === 'new' ? '/monitoraggio/regole/nuova' : `/monitoraggio/regole/${mode.id}/modifica`,
    }, { status });
  };

  /** A refused command on the form: field messages next to the fields, anything else above it. */
  const refused = (err: unknown) => {
    if (err instanceof ValidationError) return { errors: Object.fromEntries(err.errors.map((e) => [e.path || '_form', e.message])), status: 422 };
    if (err instanceof HttpError && err.status < 500 && err.status !== 404) return { refusal: err.detail ?? err.title, status: err.status };
    throw err;
  };

  router.get('/monitoraggio/regole/nuova', staff(RULE_EDITORS), (ctx) => {
    const t = typeof ctx.query.tipologia === 'string' && isTipologia(ctx.query.tipologia) ? ctx.query.tipologia : undefined;
    const starter = t ? STARTERS[t] : undefined;
    const state: BuilderState = starter ? stateOf(starter.condizione) : { modo: 'costruttore', combinatore: 'tutti', righe: [emptyRow('campo')], json: '' };
    renderForm(ctx, { kind: 'new' }, {
      tipologia: t ?? '', nome: t ? TIPOLOGIA_LABELS[t] : '', ambito: starter?.ambito ?? 'evento', livello: 'cliente', punteggio: String(starter?.punteggio ?? 50),
      esito: 'alert', finestra_dedup_giorni: '30', indicatori: [],
    }, state);
  });

  router.post('/monitoraggio/regole/nuova', staff(RULE_EDITORS), async (ctx) => {
    const body = formBody(ctx);
    const azione = typeof body.azione === 'string' ? body.azione : 'salva';
    const state = readBuilder(body);
    if (azione !== 'salva') {
      const step = applyStep(state, azione);
      return renderForm(ctx, { kind: 'new' }, typed(body), step.state, { general: step.general });
    }
    const c = checkRuleForm(createRuleSchema, body, state);
    if (!c.ok) return renderForm(ctx, { kind: 'new' }, typed(body), state, c, 422);
    try {
      const { rule } = await tx(ctx, (trx) => createRule(trx, tenantOf(ctx), ruleActor(ctx), c.data));
      redirectWithFlash(ctx, `/monitoraggio/regole/${rule.id}`, 'success', `Regola «${rule.nome}» creata come bozza`);
    } catch (err) {
      const r = refused(err);
      return renderForm(ctx, { kind: 'new' }, typed(body), state, r, r.status);
    }
  });

  router.post('/monitoraggio/regole/anteprima', staff(STAFF_READ), (ctx) => {
    render(ctx, views, 'monitoraggio/regole/_anteprima.njk', { anteprima: preview(readBuilder(formBody(ctx))) });
  });

  const load = async (ctx: Ctx, id: string) => {
    const r = await tx(ctx, (trx) => ruleDetail(trx, tenantOf(ctx), id));
    if (!r) throw notFound('Regola');
    return r;
  };

  router.get('/monitoraggio/regole/:id', staff(STAFF_READ), async (ctx) => {
    const r = await load(ctx, ctx.params.id!);
    const versioni = r.versioni.map((v) => ({
      ...v, frase: describeMonitoringCondition(v.condizione), json: pretty(v.condizione),
      indicatori_testi: v.indicatori.map((codice) => ({ codice, testo: subIndice(codice)?.testo ?? 'Sub-indice non più presente' })),
    }));
    const names = await tx(ctx, (trx) => userNames(trx, r.versioni.flatMap((v) => [v.created_by, v.updated_by, v.activated_by, v.retired_by])));
    render(ctx, views, 'monitoraggio/regole/detail.njk', {
      r, versioni, names, labels, canEdit: hasRole(ctx.state.user, RULE_EDITORS), canRetire: hasRole(ctx.state.user, RULE_RETIRERS),
    });
  });

  const editMode = (r: Awaited<ReturnType<typeof load>>): Mode => ({
    kind: 'edit', id: r.id, cod: r.cod_regola, versione: r.bozza?.versione ?? null, fromActive: !r.bozza,
  });

  router.get('/monitoraggio/regole/:id/modifica', staff(RULE_EDITORS), async (ctx) => {
    const r = await load(ctx, ctx.params.id!);
    const base = r.bozza ?? r.attiva ?? r.versioni[0]!;
    renderForm(ctx, editMode(r), versionValues(base, r), stateOf(base.condizione));
  });

  router.post('/monitoraggio/regole/:id/modifica', staff(RULE_EDITORS), async (ctx) => {
    const r = await load(ctx, ctx.params.id!);
    const body = formBody(ctx);
    const azione = typeof body.azione === 'string' ? body.azione : 'salva';
    const state = readBuilder(body);
    if (azione !== 'salva') {
      const step = applyStep(state, azione);
      return renderForm(ctx, editMode(r), typed(body), step.state, { general: step.general });
    }
    const c = checkRuleForm(updateRuleSchema, body, state, ['cod_regola']);
    if (!c.ok) return renderForm(ctx, editMode(r), typed(body), state, c, 422);
    try {
      const { draft } = await tx(ctx, (trx) => updateRuleDraft(trx, tenantOf(ctx), ruleActor(ctx), r.id, { ...c.data, azione: 'modifica' }));
      redirectWithFlash(ctx, `/monitoraggio/regole/${r.id}`, 'success', `Bozza v${draft?.versione} salvata: entrerà in vigore dopo le verifiche di rilascio`);
    } catch (err) {
      const rr = refused(err);
      return renderForm(ctx, editMode(r), typed(body), state, rr, rr.status);
    }
  });

  const action = (path: string, roles: Parameters<typeof staff>[0], run: (ctx: Ctx, id: string, body: Record<string, unknown>) => Promise<string>) =>
    router.post(`/monitoraggio/regole/:id/${path}`, staff(roles), async (ctx) => {
      const r = await load(ctx, ctx.params.id!);
      const back = `/monitoraggio/regole/${r.id}`;
      try {
        redirectWithFlash(ctx, back, 'success', await run(ctx, r.id, formBody(ctx)));
      } catch (err) {
        if (err instanceof HttpError && err.status < 500 && err.status !== 404) return redirectWithFlash(ctx, back, 'danger', (err instanceof ValidationError ? err.errors[0]?.message : undefined) ?? err.detail ?? err.title);
        throw err;
      }
    });
  action('ritira', RULE_RETIRERS, async (ctx, id, body) => {
    const m = RETIRE_REASON.safeParse(body.motivazione ?? '');
    if (!m.success) throw new ValidationError([{ path: 'motivazione', message: m.error.issues[0]!.message }]);
    await tx(ctx, (trx) => retireRule(trx, tenantOf(ctx), ruleActor(ctx), id, m.data));
    return 'Regola ritirata: non viene più valutata';
  });
  action('scarta', RULE_EDITORS, async (ctx, id) => {
    await tx(ctx, (trx) => discardDraft(trx, tenantOf(ctx), ruleActor(ctx), id));
    return 'Bozza scartata';
  });
};
