import { tenantOf, hasRole } from '../../../http/auth';
import { HttpError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { STAFF_READ } from '../../../kit/roles';
import { describeCondition } from '../../../kit/conditions';
import type { Condizione } from '../../../kit/conditions/condition.types';
import { RISK_LIST_LABELS } from '../index';
import { ETICHETTE_CAMPI } from './condition-help';
import { activateDraft, discardTheDraft, ensureModel, newDraft, refusalMessage } from './config.commands';
import { CONFIG_ACTIVATORS, CONFIG_EDITORS, formBody, readTx } from './config.access';
import { CLASSE_LABELS, CLASSE_TONES, FAMIGLIA_LABELS, STATO_VERSIONE_LABELS, STATO_VERSIONE_TONES } from './config.labels';
import { ruleSets, rulesOf, type RegolaRow } from './config.reads';

export const configLabels = {
  classe: CLASSE_LABELS, classeTone: CLASSE_TONES, famiglia: FAMIGLIA_LABELS, stato: STATO_VERSIONE_LABELS, statoTone: STATO_VERSIONE_TONES,
};

/** A condition in Italian for the table; a stored condition the describer cannot read is named as such, not hidden. */
export function describeSafely(c: unknown): string {
  try {
    return describeCondition(c as Condizione, { etichette: ETICHETTE_CAMPI, liste: RISK_LIST_LABELS });
  } catch {
    return 'Condizione non leggibile: vedi il JSON';
  }
}

/**
 * A sentence cut where it quotes a stored code («ditta_individuale»): the page shows those as code,
 * since the rule compares with that very value, and the words around them as text.
 */
export function sentenceParts(sentence: string): { testo: string; codice?: boolean }[] {
  return sentence.split(/«([a-z0-9_.-]+)»/i).map((testo, i) => (i % 2 ? { testo, codice: true } : { testo })).filter((p) => p.testo !== '');
}

const withDescription = (r: RegolaRow) => ({ ...r, frase: sentenceParts(describeSafely(r.condizione)), json: JSON.stringify(r.condizione, null, 2) });

/**
 * /rischio/configurazione: the versions of the rule set and the rules of one of them (the draft
 * when there is one, else the version in force). The draft is where rules are changed; a
 * compliance officer puts it in force after trying it on the portfolio (/rischio/scenari).
 */
export const registerRuleSetPages: RegisterRoutes = (router, { deps, views }) => {
  const renderPage = async (ctx: Ctx, refusal?: string, status = 200) => {
    const wanted = typeof ctx.query.versione === 'string' ? ctx.query.versione : '';
    const { versions, selected, rules } = await readTx(deps, ctx, async (trx) => {
      await ensureModel(trx, tenantOf(ctx));
      const all = await ruleSets(trx);
      const pick = (wanted && isUuid(wanted) ? all.find((v) => v.id === wanted) : undefined)
        ?? all.find((v) => v.stato === 'draft') ?? all.find((v) => v.stato === 'active') ?? all[0];
      return { versions: all, selected: pick, rules: pick ? (await rulesOf(trx, pick.id)).map(withDescription) : [] };
    });
    const byId = Object.fromEntries(versions.map((v) => [v.id, v.versione]));
    const user = ctx.state.user!;
    render(ctx, views, 'rischio/config/configurazione.njk', {
      versions, selected, rules, byId, labels: configLabels, refusal: refusal ?? null,
      draft: versions.find((v) => v.stato === 'draft') ?? null,
      active: versions.find((v) => v.stato === 'active') ?? null,
      canEdit: hasRole(user, CONFIG_EDITORS), canActivate: hasRole(user, CONFIG_ACTIVATORS),
      unknownVersion: Boolean(wanted) && selected?.id !== wanted,
    }, { status });
  };

  router.get('/rischio/configurazione', staff(STAFF_READ), (ctx) => renderPage(ctx));

  /** One action on the versions: done, redirect with a message; refused (409, 403), the page again with the reason. */
  const versionAction = (path: string, roles: typeof CONFIG_EDITORS, run: (ctx: Ctx) => Promise<string>) =>
    router.post(path, staff(roles), async (ctx) => {
      let done: string;
      try {
        done = await run(ctx);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
        return renderPage(ctx, refusalMessage(err), err.status);
      }
      redirectWithFlash(ctx, '/rischio/configurazione', 'success', done);
    });

  versionAction('/rischio/configurazione/bozza', CONFIG_EDITORS, async (ctx) => {
    const body = formBody(ctx);
    const v = await newDraft(deps, ctx, typeof body.descrizione === 'string' ? body.descrizione.trim() : '');
    return `Bozza ${v.versione} creata dalla versione in vigore: modifica le regole e provala sul portafoglio prima di attivarla`;
  });
  versionAction('/rischio/configurazione/bozza/scarta', CONFIG_EDITORS, async (ctx) => {
    const id = String(formBody(ctx).versione_id ?? '');
    await discardTheDraft(deps, ctx, id);
    return 'Bozza scartata: resta in vigore la versione attiva';
  });
  versionAction('/rischio/configurazione/attiva', CONFIG_ACTIVATORS, async (ctx) => {
    const id = String(formBody(ctx).versione_id ?? '');
    const v = await activateDraft(deps, ctx, id);
    return `Versione ${v.versione} in vigore: i prossimi calcoli useranno le sue regole`;
  });
};
