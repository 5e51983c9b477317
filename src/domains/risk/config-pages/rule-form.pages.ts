import type { z } from 'zod';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { CLASSI } from '../risk.types';
import { addRule, changeRule, checkRuleCondition, ensureModel, listLabels, refusalMessage, switchOffRule } from './config.commands';
import { CONFIG_EDITORS, formBody, readTx, typed } from './config.access';
import { newRuleFormSchema, parseConditionText, ruleFormSchema } from './config.forms';
import { CAMPI_PROFILO, ESEMPI_CONDIZIONE, FILTRI_AGGREGATO_HELP, FUNZIONI_AGGREGATO_HELP, OPERATORI_HELP } from './condition-help';
import { CLASSE_LABELS, FAMIGLIA_LABELS } from './config.labels';
import { factorsWithUse, ruleById, ruleSets, type RegolaRow, type VersioneRow } from './config.reads';
import { configLabels, describeSafely, sentenceParts } from './rulesets.pages';

const pretty = (c: unknown) => JSON.stringify(c, null, 2);
const DEFAULT_CONDITION = pretty({ campo: 'cliente.pep', op: 'eq', valore: true });

/** The preview under the condition: the sentence in Italian, or each problem with its path. */
function preview(raw: unknown) {
  const parsed = parseConditionText(raw, checkRuleCondition);
  return parsed.ok ? { frase: sentenceParts(describeSafely(parsed.condizione)), errori: [] as string[] } : { frase: null, errori: parsed.errors };
}

const help = () => ({
  campi: CAMPI_PROFILO, funzioni: Object.entries(FUNZIONI_AGGREGATO_HELP).map(([fn, descrizione]) => ({ fn, descrizione })),
  filtri: FILTRI_AGGREGATO_HELP, operatori: OPERATORI_HELP, liste: Object.entries(listLabels()).map(([nome, descrizione]) => ({ nome, descrizione })),
  esempi: ESEMPI_CONDIZIONE.map((e, i) => ({ indice: i, titolo: e.titolo, json: pretty(e.condizione), frase: sentenceParts(describeSafely(e.condizione)) })),
});

type Mode = { kind: 'new'; draft: VersioneRow | undefined } | { kind: 'edit'; rule: RegolaRow; version: VersioneRow };

/**
 * The rule form: new rule in the draft (/rischio/configurazione/nuova) and a rule's page
 * (/rischio/configurazione/:id), which is its edit form when the rule is in the draft and the
 * user may edit, and a read-only view otherwise. The condition is JSON in a textarea with an
 * Italian preview refreshed by htmx as it is typed; without JavaScript the preview comes with
 * the page after each post.
 */
export const registerRuleFormPages: RegisterRoutes = (router, { deps, views }) => {
  const renderForm = async (ctx: Ctx, mode: Mode, values: Record<string, string>, errors: Record<string, string> = {}, status = 200, refusal?: string) => {
    const factors = await readTx(deps, ctx, (trx) => factorsWithUse(trx));
    const canEdit = hasRole(ctx.state.user, CONFIG_EDITORS);
    const editable = canEdit && (mode.kind === 'new' ? Boolean(mode.draft) : mode.version.stato === 'draft');
    const condErrors = errors.condizione ? errors.condizione.split('\n') : [];
    render(ctx, views, 'rischio/config/regola.njk', {
      mode: mode.kind, rule: mode.kind === 'edit' ? mode.rule : null, version: mode.kind === 'edit' ? mode.version : mode.draft ?? null,
      values, errors, condErrors, editable, canEdit, refusal: refusal ?? null, labels: configLabels,
      anteprima: preview(values.condizione), help: help(),
      factorOptions: [{ value: '', label: 'Scegli il fattore…' }, ...factors.filter((f) => f.attivo || f.id === values.fattore_id)
        .map((f) => ({ value: f.id, label: `${FAMIGLIA_LABELS[f.famiglia]} · ${f.nome}${f.attivo ? '' : ' (disattivato)'}` }))],
      classOptions: [{ value: '', label: 'Nessuna' }, ...CLASSI.map((c) => ({ value: c, label: CLASSE_LABELS[c] }))],
    }, { status });
  };

  const draftOf = (ctx: Ctx) => readTx(deps, ctx, async (trx) => {
    await ensureModel(trx, tenantOf(ctx));
    return (await ruleSets(trx)).find((v) => v.stato === 'draft');
  });
  const ruleAndVersion = async (ctx: Ctx, id: string) => {
    const found = await readTx(deps, ctx, async (trx) => {
      const rule = await ruleById(trx, id);
      return rule ? { rule, version: (await ruleSets(trx)).find((v) => v.id === rule.versione_id)! } : undefined;
    });
    if (!found) throw notFound('Regola');
    return found;
  };
  const valuesOf = (r: RegolaRow): Record<string, string> => ({
    codice: r.codice, nome: r.nome, descrizione: r.descrizione, fattore_id: r.fattore_id, punti: String(r.punti), classe_minima: r.classe_minima ?? '', condizione: pretty(r.condizione),
    attiva: r.attiva ? '1' : '',
  });
  /** A command's refusal on the form: field errors next to their fields, anything else above the form. */
  const refused = (err: unknown) => {
    if (err instanceof ValidationError) {
      const errors: Record<string, string> = {};
      for (const e of err.errors) {
        const [head, ...rest] = e.path.split('.');
        const key = head === 'condizione' ? 'condizione' : (head || '_form');
        const msg = head === 'condizione' && rest.length ? `${rest.join('.')}: ${e.message}` : e.message;
        errors[key] = errors[key] ? `${errors[key]}\n${msg}` : msg;
      }
      return { errors, status: 422 };
    }
    if (err instanceof HttpError && err.status < 500 && err.status !== 404) return { errors: {}, status: err.status, refusal: refusalMessage(err) };
    throw err;
  };

  /** Checks the whole form: the fields by the schema, the condition by the language (each problem with its path). */
  const check = <S extends typeof ruleFormSchema | typeof newRuleFormSchema>(schema: S, body: Record<string, unknown>) => {
    const parsed = (schema as S).safeParse(body) as z.ZodSafeParseResult<z.infer<S>>;
    const cond = parseConditionText(body.condizione, checkRuleCondition);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (!cond.ok) errors.condizione = cond.errors.join('\n');
    return parsed.success && cond.ok ? { ok: true as const, data: parsed.data, condizione: cond.condizione } : { ok: false as const, errors };
  };

  router.post('/rischio/configurazione/anteprima', staff(STAFF_READ), (ctx) => {
    const body = formBody(ctx);
    const example = typeof body.esempio === 'string' ? ESEMPI_CONDIZIONE[Number(body.esempio)] : undefined;
    if (example) {
      const condizione = pretty(example.condizione);
      return render(ctx, views, 'rischio/config/_editor.njk', { values: { condizione }, condErrors: [], anteprima: preview(condizione), editable: true, help: help() });
    }
    render(ctx, views, 'rischio/config/_anteprima.njk', { anteprima: preview(body.condizione) });
  });

  router.get('/rischio/configurazione/nuova', staff(CONFIG_EDITORS), async (ctx) =>
    renderForm(ctx, { kind: 'new', draft: await draftOf(ctx) }, { condizione: DEFAULT_CONDITION, punti: '10', classe_minima: '' }));

  router.post('/rischio/configurazione/nuova', staff(CONFIG_EDITORS), async (ctx) => {
    const body = formBody(ctx);
    const draft = await draftOf(ctx);
    const mode: Mode = { kind: 'new', draft };
    const values = typed(body);
    if (typeof body.esempio === 'string') return renderForm(ctx, mode, { ...values, condizione: pretty(ESEMPI_CONDIZIONE[Number(body.esempio)]?.condizione ?? {}) });
    if (!draft) return renderForm(ctx, mode, values, {}, 409, 'Nessuna bozza aperta: crea la bozza dalla versione in vigore, poi aggiungi la regola');
    const c = check(newRuleFormSchema, body);
    if (!c.ok) return renderForm(ctx, mode, values, c.errors, 422);
    try {
      await addRule(deps, ctx, { ...c.data, condizione: c.condizione });
    } catch (err) {
      const r = refused(err);
      return renderForm(ctx, mode, values, r.errors, r.status, r.refusal);
    }
    redirectWithFlash(ctx, `/rischio/configurazione?versione=${draft.id}#regole`, 'success', `Regola «${c.data.nome}» aggiunta alla bozza v${draft.versione}`);
  });

  router.get('/rischio/configurazione/:id', staff(STAFF_READ), async (ctx) => {
    const { rule, version } = await ruleAndVersion(ctx, ctx.params.id!);
    await renderForm(ctx, { kind: 'edit', rule, version }, valuesOf(rule));
  });

  router.post('/rischio/configurazione/:id', staff(CONFIG_EDITORS), async (ctx) => {
    const { rule, version } = await ruleAndVersion(ctx, ctx.params.id!);
    const mode: Mode = { kind: 'edit', rule, version };
    const body = formBody(ctx);
    const values = { ...typed(body), codice: rule.codice };
    if (typeof body.esempio === 'string') return renderForm(ctx, mode, { ...values, condizione: pretty(ESEMPI_CONDIZIONE[Number(body.esempio)]?.condizione ?? {}) });
    if (version.stato !== 'draft') {
      return renderForm(ctx, mode, values, {}, 409, `Questa regola appartiene alla versione v${version.versione} ${version.stato === 'active' ? 'in vigore' : 'ritirata'}: le regole si modificano solo nella bozza. Crea la bozza e modifica lì la regola.`);
    }
    const c = check(ruleFormSchema, body);
    if (!c.ok) return renderForm(ctx, mode, values, c.errors, 422);
    try {
      await changeRule(deps, ctx, rule.id, { ...c.data, condizione: c.condizione });
    } catch (err) {
      const r = refused(err);
      return renderForm(ctx, mode, values, r.errors, r.status, r.refusal);
    }
    redirectWithFlash(ctx, `/rischio/configurazione?versione=${version.id}#regole`, 'success', `Regola «${c.data.nome}» aggiornata nella bozza v${version.versione}`);
  });

  router.post('/rischio/configurazione/:id/disattiva', staff(CONFIG_EDITORS), async (ctx) => {
    const { rule, version } = await ruleAndVersion(ctx, ctx.params.id!);
    if (version.stato !== 'draft') {
      return renderForm(ctx, { kind: 'edit', rule, version }, valuesOf(rule), {}, 409,
        `Questa regola appartiene alla versione v${version.versione} ${version.stato === 'active' ? 'in vigore' : 'ritirata'}: si disattiva solo nella bozza.`);
    }
    try {
      await switchOffRule(deps, ctx, rule.id);
    } catch (err) {
      const r = refused(err);
      return renderForm(ctx, { kind: 'edit', rule, version }, valuesOf(rule), r.errors, r.status, r.refusal);
    }
    redirectWithFlash(ctx, `/rischio/configurazione?versione=${version.id}#regole`, 'success', `Regola «${rule.nome}» disattivata nella bozza v${version.versione}`);
  });
};
