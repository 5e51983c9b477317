import { z } from 'zod';
import { testo, testoOpzionale, testoOVuoto } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import type { Condizione } from '../../../kit/conditions';
import { validateMonitoringCondition } from '../monitoring.conditions';
import { unknownIndicatori } from '../monitoring.indicators';
import { TIPOLOGIE } from '../monitoring.typologies';
import { monitoringRulesList } from './rules.list';

/** What a rule version holds besides its condition (docs/monitoring.md, "Rules, versions and release gates"). */
export const AMBITI = ['evento', 'giornaliero'] as const;
export const LIVELLI = ['cliente', 'rapporto'] as const;
export const ESITI_REGOLA = ['alert', 'osserva'] as const;
export const RULE_CODE = /^[a-z][a-z0-9_]{1,62}$/;

/** The condition, checked by the monitoring catalogue: each problem at its path under `condizione` (condizione.tutti.1.op). */
export const monitoringConditionSchema = z.unknown().superRefine((value, ctx) => {
  for (const issue of validateMonitoringCondition(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}).transform((v) => v as Condizione)
  .meta({ description: 'A condition of the rule language over monitoring\'s fields (docs/conditions.md, docs/monitoring.md)' });

/** UIF sub-index codes ("9.18"), each one of the annex of 12 May 2023. */
export const indicatoriSchema = z.array(z.string().trim().max(10, 'Codice non valido'), { message: 'Indica un elenco di codici' })
  .max(50, 'Al massimo 50 indicatori')
  .superRefine((codes, ctx) => {
    for (const u of unknownIndicatori(codes)) ctx.addIssue({ code: 'custom', path: [u.index], message: `Sub-indice UIF sconosciuto: ${u.codice}` });
  })
  .transform((codes) => [...new Set(codes)]);

const int = (min: number, max: number, what: string) => z.number({ message: `Indica ${what}: un numero intero` }).int(`Indica ${what}: un numero intero`)
  .min(min, `${what[0]!.toUpperCase()}${what.slice(1)} va da ${min} a ${max}`).max(max, `${what[0]!.toUpperCase()}${what.slice(1)} va da ${min} a ${max}`);

/** The fields of a version (the draft's content). */
const versionFields = {
  condizione: monitoringConditionSchema,
  ambito: z.enum(AMBITI, { message: 'Ambito: evento o giornaliero' }),
  livello: z.enum(LIVELLI, { message: 'Livello: cliente o rapporto' }),
  punteggio: int(1, 100, 'il punteggio'),
  esito: z.enum(ESITI_REGOLA, { message: 'Esito: alert o osserva' }),
  finestra_dedup_giorni: int(0, 365, 'la finestra di deduplica in giorni'),
  indicatori: indicatoriSchema,
  descrizione: testoOVuoto({ max: 4_000, multiline: true }),
};

export const createRuleSchema = z.object({
  cod_regola: z.string({ message: 'Indica il codice' }).trim()
    .regex(RULE_CODE, 'Il codice va scritto in minuscolo, con lettere, cifre e trattini bassi (almeno 2 caratteri, inizia con una lettera)'),
  nome: testo({ max: 200, min: 3, vuoto: 'Indica il nome' }),
  tipologia: z.enum(TIPOLOGIE, { message: 'Scegli una tipologia valida' }),
  ...versionFields,
  esito: versionFields.esito.optional().default('alert'),
  finestra_dedup_giorni: versionFields.finestra_dedup_giorni.optional().default(30),
  indicatori: versionFields.indicatori.optional().default([]),
});
export type CreateRuleInput = z.infer<typeof createRuleSchema>;

/**
 * PUT /api/monitoring/rules/:id. `modifica` (the default) changes the draft, opening one from the
 * version in force when there is none; name and typology belong to the rule and change at once.
 * `ritira` takes the version in force out of evaluation; `scarta_bozza` discards the draft.
 */
export const updateRuleSchema = z.object({
  azione: z.enum(['modifica', 'ritira', 'scarta_bozza'], { message: 'Azione: modifica, ritira o scarta_bozza' }).optional().default('modifica'),
  motivazione: testoOpzionale({ max: 2_000, multiline: true }),
  nome: testo({ max: 200, min: 3, vuoto: 'Indica il nome' }).optional(),
  tipologia: z.enum(TIPOLOGIE, { message: 'Scegli una tipologia valida' }).optional(),
  condizione: monitoringConditionSchema.optional(),
  ambito: versionFields.ambito.optional(),
  livello: versionFields.livello.optional(),
  punteggio: versionFields.punteggio.optional(),
  esito: versionFields.esito.optional(),
  finestra_dedup_giorni: versionFields.finestra_dedup_giorni.optional(),
  indicatori: versionFields.indicatori.optional(),
  descrizione: versionFields.descrizione.optional(),
}).superRefine((b, ctx) => {
  if (b.azione === 'ritira' && !b.motivazione) ctx.addIssue({ code: 'custom', path: ['motivazione'], message: 'Indica perché la regola viene ritirata' });
});
export type UpdateRuleInput = z.infer<typeof updateRuleSchema>;

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const empty = z.literal('').transform(() => undefined);
export const listRulesQuery = z.object({
  tipologia: z.enum(TIPOLOGIE).optional().or(empty),
  attiva: bool.optional().or(empty),
  bozza: bool.optional().or(empty),
  ...listParamsShape(monitoringRulesList),
});
export type ListRulesQuery = z.infer<typeof listRulesQuery>;

const versionRecord = z.object({
  id: z.string(), versione: z.number(), stato: z.enum(['bozza', 'attiva', 'ritirata']), condizione: z.record(z.string(), z.unknown()),
  ambito: z.enum(AMBITI), livello: z.enum(LIVELLI), punteggio: z.number(), esito: z.enum(ESITI_REGOLA), finestra_dedup_giorni: z.number(),
  indicatori: z.array(z.string()), descrizione: z.string(), basata_su: z.string().nullable(),
  created_by: z.string(), created_at: z.string(), updated_by: z.string(), updated_at: z.string(),
  activated_by: z.string().nullable(), activated_at: z.string().nullable(), retired_by: z.string().nullable(), retired_at: z.string().nullable(),
  motivazione_ritiro: z.string().nullable(),
});
export type RuleVersionRecord = z.infer<typeof versionRecord>;

const ruleIdentity = {
  id: z.string(), cod_azienda: z.string(), cod_regola: z.string(), nome: z.string(), tipologia: z.string(),
  created_by: z.string(), created_at: z.string(), updated_at: z.string(),
};

export const ruleListItem = z.object({
  ...ruleIdentity,
  attiva_id: z.string().nullable(), attiva_versione: z.number().nullable(), attiva_punteggio: z.number().nullable(), attiva_ambito: z.string().nullable(),
  attiva_dal: z.string().nullable(), bozza_id: z.string().nullable(), bozza_versione: z.number().nullable(), bozza_modificata: z.string().nullable(),
});
export const ruleListResponse = listResponse(ruleListItem);

export const ruleDetailResponse = z.object({
  ...ruleIdentity,
  attiva: versionRecord.nullable(),
  bozza: versionRecord.nullable(),
  versioni: z.array(versionRecord),
});
