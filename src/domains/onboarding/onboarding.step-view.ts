import type nunjucks from 'nunjucks';
import type { Deps } from '../../deps';
import { isHtmx, render, type Ctx } from '../../http/render';
import { SUBJECT_TYPES } from '../../../workflows/onboarding/onboarding.contract';
import {
  anagrafeGroups, errorSummary, flatten, labelsOf, SUBJECT_TYPE_HINTS, SUBJECT_TYPE_LABELS,
} from './onboarding.forms';
import type { Loaded } from './onboarding.page-context';
import { previousStep, progress, STEP_TITLES, stepUrl } from './onboarding.steps';
import {
  applicationIssues, cddFields, countryLabels, countryRows, documentsStep, issueText, reteOptions, summarySections, uboLabels, uboRows, WALLET_LABELS, walletProofMessage,
} from './onboarding.wizard';

/** What a step page may be given besides the case: the values typed, their errors, and a step's own extras. */
export interface StepOptions {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  status?: number;
  /** Repeated rows shown (owners, countries). */
  rows?: number;
  /** Step 3/4: the upload form; step 7: the wallet and declaration forms. */
  upload?: { values: Record<string, string>; errors: Record<string, string> };
  wallet?: { values: Record<string, string>; errors: Record<string, string> };
  declaration?: { values: Record<string, string>; errors: Record<string, string> };
  notice?: string;
  /** Step 8: the issues submission reported. */
  issues?: { path: string; message: string; step: number }[];
}

/** Where a message without a field of its own points: its list, or the step's form. */
const anchorsFor = (n: number): Record<string, string> => ({
  titolari: 'titolari-righe', paesi: 'paesi-righe', travel_rule: 'travel-rule',
  _form: n === 3 || n === 4 ? 'documenti-richiesti' : n === 7 ? 'travel-rule' : 'modulo',
});

export type RenderStep = (ctx: Ctx, l: Loaded, n: number, o?: StepOptions) => void;

/** Renders step `n` of the wizard for the session's case. */
export const stepRenderer = (deps: Deps, views: nunjucks.Environment): RenderStep => (ctx, l, n, o = {}) => {
  const v = l.view;
  const tipo = v.tipo_soggetto;
  const errors = o.errors ?? {};
  const prev = previousStep(tipo, n);
  let labels: Record<string, string> = {};
  const data: Record<string, unknown> = {};

  switch (n) {
    case 0:
      data.types = SUBJECT_TYPES.map((t) => ({ value: t, label: SUBJECT_TYPE_LABELS[t], hint: SUBJECT_TYPE_HINTS[t] }));
      data.values = o.values ?? { subject_type: tipo ?? '' };
      labels = { subject_type: 'Tipo di cliente' };
      break;
    case 1: {
      const groups = tipo ? anagrafeGroups(tipo) : [];
      data.groups = groups;
      data.values = o.values ?? flatten(v.anagrafe);
      labels = labelsOf(groups);
      break;
    }
    case 2: {
      const saved = v.ubo.titolari;
      const count = Math.max(1, o.rows ?? (saved.length || 2));
      data.rows = uboRows(count, saved.map((t) => t.id));
      data.values = o.values ?? flatten({ titolari: saved });
      labels = uboLabels(count);
      break;
    }
    case 3: case 4: {
      Object.assign(data, documentsStep(v, n));
      data.upload = o.upload ?? { values: {}, errors: {} };
      labels = { tipo: 'Tipo di documento', riferimento: 'Si riferisce a', file: 'File' };
      break;
    }
    case 5: {
      const c = cddFields(tipo);
      data.fields = c.fields;
      data.versione = c.versione;
      data.values = o.values ?? flatten({ risposte: v.cdd_answers.risposte });
      labels = Object.fromEntries(c.fields.map((f) => [f.name, f.label]));
      break;
    }
    case 6: {
      const saved = v.countries.paesi;
      const count = Math.max(1, o.rows ?? (saved.length || 3));
      data.rows = countryRows(count);
      data.values = o.values ?? flatten({ paesi: saved });
      labels = countryLabels(count);
      break;
    }
    case 7: {
      const w = o.wallet ?? { values: {}, errors: {} };
      const rete = w.values.rete ?? '';
      const indirizzo = w.values.indirizzo?.trim() ?? '';
      data.wallet = { ...w, messaggio: rete && indirizzo ? walletProofMessage(v.id, l.row.cod_azienda, rete, indirizzo) : null };
      data.declaration = o.declaration ?? { values: { luogo: '' }, errors: {} };
      data.reteOptions = reteOptions;
      labels = WALLET_LABELS;
      break;
    }
    case 8: {
      data.sections = summarySections(v);
      data.issues = (o.issues ?? applicationIssues(v)).map((i) => ({ ...i, testo: issueText(tipo, i), titolo: STEP_TITLES[i.step] ?? '', url: stepUrl(i.step) }));
      break;
    }
  }

  const summary = errorSummary(errors, labels, anchorsFor(n));
  const fragment = n === 3 || n === 4 ? 'onboarding/_documenti.njk' : n === 7 ? 'onboarding/_wallets.njk' : undefined;
  render(ctx, views, `onboarding/step-${n}.njk`, {
    n, titolo: STEP_TITLES[n], brand: l.brand, progress: progress(tipo, n), back: prev === null ? null : stepUrl(prev), c: v,
    errors, summary, notice: o.notice, isFragment: isHtmx(ctx), maxMb: Math.round(deps.config.uploadMaxBytes / 1024 / 1024), ...data,
  }, { status: fragment && isHtmx(ctx) ? 200 : o.status, fragment });
};
