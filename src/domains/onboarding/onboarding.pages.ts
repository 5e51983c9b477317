import { HttpError } from '../../http/errors';
import { isHtmx, redirectWithFlash, render, type Ctx } from '../../http/render';
import type { RegisterRoutes } from '../../kit/area';
import { CDD_SCHEMA_VERSION } from './onboarding.cdd-schema';
import { flatten, isBlankRow, unflatten, zodErrors } from './onboarding.forms';
import { registerOnboardingAttachmentPages } from './onboarding.attachments-pages';
import { registerOnboardingStatusPages } from './onboarding.status-pages';
import { formBody, pageHelpers, str, type Loaded } from './onboarding.page-context';
import { subjectTypeSchema } from './onboarding.schemas';
import { reloadCase, saveSection, submitCase, caseView, loadCaseBundle } from './onboarding.service';
import { stepRenderer } from './onboarding.step-view';
import { applicableFrom, LAST_STEP, nextStep, stepUrl } from './onboarding.steps';
import { applicationIssues, countryRows, stepErrors, uboRows } from './onboarding.wizard';
import type { DraftSection } from '../../../workflows/onboarding/onboarding.contract';

type Row = Record<string, unknown>;
const SAVED_LATER = 'Bozza salvata (senza controlli). Puoi chiudere la pagina: per riprendere torna a questa pagina o chiedi un link all\'indirizzo e-mail della richiesta.';

/**
 * The public onboarding wizard: one page per step, each a plain form that posts and
 * redirects (htmx only adds rows and swaps the document and wallet lists in place).
 * A step saves what was typed as a draft (through the case's workflow), then checks the
 * step as submission would: with issues the page comes back (422) with what was typed
 * and a message next to each field; without, the next step that applies to the subject.
 */
export const registerOnboardingPages: RegisterRoutes = (router, services) => {
  const { deps, views } = services;
  const { editable, applicantPage } = pageHelpers(deps, views);
  const renderStep = stepRenderer(deps, views);

  const stepParam = (ctx: Ctx): number | null => {
    const n = Number(ctx.params.n);
    return Number.isInteger(n) && n >= 0 && n <= LAST_STEP && /^\d$/.test(String(ctx.params.n)) ? n : null;
  };

  /** The step to show instead of `n`, when `n` does not apply (or the subject type is not chosen yet). */
  const redirectFor = (l: Loaded, n: number) => {
    const tipo = l.view.tipo_soggetto;
    if (n > 0 && !tipo) return 0;
    const to = applicableFrom(tipo, n);
    return to === n ? null : to;
  };

  const fresh = async (l: Loaded): Promise<Loaded> => {
    const row = await reloadCase(deps, l.row);
    const b = await loadCaseBundle(deps, row);
    return { ...l, row: b.row, view: caseView(b.row, b.docs, b.wallets, deps.config.sessionSecret) };
  };

  router.get('/onboarding/step/:n', applicantPage, async (ctx) => {
    const n = stepParam(ctx);
    if (n === null) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Passo inesistente');
    const l = await editable(ctx);
    if (!l) return;
    const to = redirectFor(l, n);
    if (to !== null) return ctx.redirect(stepUrl(to));
    renderStep(ctx, l, n);
  });

  /** Repeated rows (owners, countries): the kept rows, with the button's row removed and blank spare rows dropped. */
  const rowsOf = (data: Row, key: string, remove: number | null) => {
    const list = Array.isArray(data[key]) ? (data[key] as Row[]) : [];
    return list.filter((_, i) => i !== remove).filter((r) => r && typeof r === 'object' && !isBlankRow(r));
  };

  router.post('/onboarding/step/:n', applicantPage, async (ctx) => {
    const n = stepParam(ctx);
    if (n === null) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Passo inesistente');
    let l = await editable(ctx);
    if (!l) return;
    const to = redirectFor(l, n);
    if (to !== null) return ctx.redirect(stepUrl(to));
    const body = formBody(ctx);
    const azione = str(body.azione) ?? 'continua';
    const remove = /^rimuovi-\d{1,2}$/.test(azione) ? Number(azione.slice(8)) : null;
    let typed: Record<string, string> | undefined;
    let rows: number | undefined;

    if (n === 8) return submit(ctx, l);

    const save = async (section: DraftSection, data: unknown) => {
      await saveSection(deps, l!.row, section, data);
      l = await fresh(l!);
    };
    switch (n) {
      case 0: {
        const parsed = subjectTypeSchema.safeParse({ subject_type: str(body.subject_type) || undefined });
        if (!parsed.success) return renderStep(ctx, l, 0, { errors: zodErrors(parsed.error), status: 422, values: { subject_type: str(body.subject_type) ?? '' } });
        await save('subject_type', parsed.data);
        break;
      }
      case 1: {
        const data = unflatten(body);
        typed = flatten(data);
        await save('anagrafe', data);
        break;
      }
      case 2: {
        const titolari = rowsOf(unflatten(body), 'titolari', remove);
        await save('ubo', { titolari });
        // Ids are given by the service to new owners: keep them in what the page shows.
        typed = flatten({ titolari: titolari.map((t, i) => ({ ...t, id: l!.view.ubo.titolari[i]?.id })) });
        rows = titolari.length;
        if (azione === 'aggiungi' || remove !== null) {
          return renderStep(ctx, l, 2, { values: typed, rows: azione === 'aggiungi' ? rows + 1 : rows, notice: azione === 'aggiungi' ? 'Aggiunto un titolare: compila i suoi dati.' : 'Titolare rimosso.' });
        }
        break;
      }
      case 5: {
        const data = unflatten(body);
        const risposte = (data.risposte && typeof data.risposte === 'object' ? data.risposte : {}) as Row;
        typed = flatten({ risposte });
        await save('cdd_answers', { versione: str(body.versione) || CDD_SCHEMA_VERSION, risposte });
        break;
      }
      case 6: {
        const paesi = rowsOf(unflatten(body), 'paesi', remove);
        await save('countries', { paesi });
        typed = flatten({ paesi });
        rows = paesi.length;
        if (azione === 'aggiungi' || remove !== null) {
          return renderStep(ctx, l, 6, { values: typed, rows: azione === 'aggiungi' ? rows + 1 : rows, notice: azione === 'aggiungi' ? 'Aggiunta una riga: indica il paese e il suo ruolo.' : 'Paese rimosso.' });
        }
        break;
      }
      default:
        break; // steps 3, 4 and 7 save through their own forms; here they are only checked
    }

    if (azione === 'salva') return redirectWithFlash(ctx, '/onboarding/stato', 'success', SAVED_LATER);
    const errors = stepErrors(applicationIssues(l.view), n);
    if (Object.keys(errors).length) return renderStep(ctx, l, n, { values: typed, errors, rows, status: 422 });
    ctx.redirect(stepUrl(nextStep(l.view.tipo_soggetto, n)));
  });

  /** Step 8: submission. Refused with its issues (422) or sent on to sign the declarations. */
  const submit = async (ctx: Ctx, l: Loaded) => {
    try {
      const r = await submitCase(deps, l.row);
      if (r.firma) return redirectWithFlash(ctx, r.firma.signing_path, 'success', 'Richiesta inviata: ora firma le dichiarazioni per completarla.');
      return ctx.redirect('/onboarding/stato');
    } catch (err) {
      if (err instanceof HttpError && err.status === 422) {
        const issues = (err.extra.issues as { path: string; message: string; step: number }[] | undefined) ?? applicationIssues(l.view);
        return renderStep(ctx, l, 8, { issues, status: 422, errors: { _form: err.detail ?? 'La richiesta è incompleta' } });
      }
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, '/onboarding/stato', 'warning', err.detail ?? 'La richiesta non può essere inviata ora.');
      throw err;
    }
  };

  /** htmx: one more empty row (owner or country) appended in place, with the add button moved to the next index. */
  router.get('/onboarding/step/:n/riga', applicantPage, async (ctx) => {
    const n = stepParam(ctx);
    if (n !== 2 && n !== 6) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'Passo inesistente');
    const l = await editable(ctx);
    if (!l) return;
    const i = Math.min(19, Math.max(0, Number(str(ctx.query.indice)) || 0));
    const row = n === 2 ? uboRows(i + 1)[i] : countryRows(i + 1)[i];
    if (!isHtmx(ctx)) return ctx.redirect(stepUrl(n));
    render(ctx, views, n === 2 ? 'onboarding/_riga-titolare.njk' : 'onboarding/_riga-paese.njk', { row, values: {}, errors: {}, next: i + 1, oob: true });
  });

  registerOnboardingAttachmentPages(router, services);
  registerOnboardingStatusPages(router, services);
};
