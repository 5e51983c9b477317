import { z } from 'zod';
import { createRuleSchema } from '../rules/rules.schemas';
import { findModello } from './templates.catalog';
import { ruleInputOf } from './templates.install';

/**
 * POST /api/monitoring/rules: a rule from scratch, or from a template (`modello`: its code) whose
 * fields fill those the body leaves out; the body's fields win. An unknown template is a 422 on
 * `modello`; the merged rule is checked as any other.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const createRuleBody = z.preprocess((body, ctx) => {
  if (!isRecord(body) || typeof body.modello !== 'string') return body;
  const m = findModello(body.modello.trim());
  if (!m) {
    ctx.addIssue({ code: 'custom', path: ['modello'], message: `Modello sconosciuto: ${body.modello.trim().slice(0, 100)}`, input: body.modello });
    return body;
  }
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return { ...ruleInputOf(m), ...given };
}, createRuleSchema.extend({
  modello: z.string({ message: 'Indica il codice di un modello' }).trim().max(100).optional()
    .meta({ description: 'Codice di un modello standard (GET /api/monitoring/templates): i suoi campi valgono per quelli non indicati' }),
}));

const versionShape = {
  cod_regola: z.string(), nome: z.string(), tipologia: z.string(), tipologia_label: z.string(), descrizione: z.string(),
  condizione: z.record(z.string(), z.unknown()), frase: z.string(), ambito: z.enum(['evento', 'giornaliero']), livello: z.enum(['cliente', 'rapporto']),
  punteggio: z.number(), esito: z.enum(['alert', 'osserva']), finestra_dedup_giorni: z.number(), indicatori: z.array(z.string()),
};

export const templateItem = z.object({
  ...versionShape,
  /** The tenant's rule with the template's code, when there is one. */
  regola: z.object({ id: z.string(), nome: z.string(), attiva_versione: z.number().nullable(), bozza_versione: z.number().nullable() }).nullable(),
});
export type TemplateItem = z.infer<typeof templateItem>;
export const templateListResponse = z.object({ items: z.array(templateItem) });
