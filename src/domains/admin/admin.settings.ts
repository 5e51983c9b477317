import type { Knex } from 'knex';
import { z } from 'zod';
import { appendAudit } from '../audit/audit.chain';

// Form posts send strings: '' means "nothing typed", never 0.
const blankToUndef = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim().replace(',', '.') : v);
const int = (min: number, max: number) => z.preprocess(blankToUndef, z.coerce.number({ error: 'Indica un numero intero' }).int('Indica un numero intero').min(min, `Minimo ${min}`).max(max, `Massimo ${max}`));
const ratio = () => z.preprocess(blankToUndef, z.coerce.number({ error: 'Indica un numero tra 0 e 1' }).min(0, 'Minimo 0').max(1, 'Massimo 1'));
const BOOLS: Record<string, boolean> = { true: true, '1': true, on: true, si: true, false: false, '0': false, off: false, no: false };
const bool = () => z.preprocess((v) => (typeof v === 'string' ? BOOLS[v.toLowerCase()] ?? v : v), z.boolean({ error: 'Indica sì o no' }));

interface SettingDef { schema: z.ZodType; default: unknown; descrizione: string; gruppo: string }

/** The settings a tenant may change. Each has its own validation; unknown keys are refused. */
export const SETTINGS_CATALOGUE = {
  'case.sla_days': { schema: int(1, 365), default: 30, descrizione: 'Giorni entro cui chiudere un caso (SLA)', gruppo: 'Casi' },
  'screening.match_threshold': { schema: ratio(), default: 0.85, descrizione: 'Punteggio minimo perché un nominativo sia una corrispondenza', gruppo: 'Screening' },
  'screening.review_threshold': { schema: ratio(), default: 0.7, descrizione: 'Punteggio minimo perché un nominativo vada in revisione', gruppo: 'Screening' },
  'screening.four_eyes': { schema: bool(), default: true, descrizione: 'La risoluzione di una corrispondenza richiede un secondo operatore', gruppo: 'Screening' },
  'cdd.review_years_high': { schema: int(1, 10), default: 1, descrizione: 'Anni tra due verifiche periodiche, rischio alto', gruppo: 'Adeguata verifica' },
  'cdd.review_years_medium_high': { schema: int(1, 10), default: 2, descrizione: 'Anni tra due verifiche periodiche, rischio medio-alto', gruppo: 'Adeguata verifica' },
  'cdd.review_years_medium': { schema: int(1, 10), default: 3, descrizione: 'Anni tra due verifiche periodiche, rischio medio', gruppo: 'Adeguata verifica' },
  'cdd.review_years_low': { schema: int(1, 10), default: 5, descrizione: 'Anni tra due verifiche periodiche, rischio basso', gruppo: 'Adeguata verifica' },
  'onboarding.draft_expiry_days': { schema: int(1, 365), default: 30, descrizione: 'Giorni di inattività dopo cui una pratica di onboarding in bozza scade', gruppo: 'Onboarding' },
  'onboarding.info_reminder_days': { schema: int(1, 60), default: 7, descrizione: 'Giorni dopo una richiesta di integrazione entro cui il cliente riceve un promemoria', gruppo: 'Onboarding' },
  'onboarding.info_expiry_days': { schema: int(1, 365), default: 30, descrizione: 'Giorni dopo una richiesta di integrazione senza risposta entro cui la pratica scade', gruppo: 'Onboarding' },
  'onboarding.link_ttl_hours': { schema: int(1, 720), default: 72, descrizione: 'Ore di validità di un link di ripresa inviato al cliente', gruppo: 'Onboarding' },
  'onboarding.pubblico': { schema: bool(), default: true, descrizione: 'Il modulo pubblico di onboarding accetta nuove pratiche', gruppo: 'Onboarding' },
  'onboarding.max_documents': { schema: int(1, 500), default: 30, descrizione: 'Numero massimo di documenti che il cliente può caricare in una pratica di onboarding', gruppo: 'Onboarding' },
  'onboarding.max_documents_mb': { schema: int(1, 10240), default: 100, descrizione: 'Dimensione totale massima, in MB, dei documenti caricati in una pratica di onboarding', gruppo: 'Onboarding' },
} satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS_CATALOGUE;
export const SETTING_KEYS = Object.keys(SETTINGS_CATALOGUE) as SettingKey[];
export type SettingValue<K extends SettingKey> = (typeof SETTINGS_CATALOGUE)[K]['default'];
export const isSettingKey = (k: string): k is SettingKey => k in SETTINGS_CATALOGUE;

export const settingUpdateSchema = z.object({
  chiave: z.string().refine(isSettingKey, 'Impostazione sconosciuta'),
  valore: z.unknown(),
});

export interface SettingView { chiave: SettingKey; valore: unknown; default: unknown; descrizione: string; gruppo: string; personalizzata: boolean; updated_by: string | null; updated_at: Date | null }

/**
 * A tenant's value, or the default when the tenant never changed it. Without codAzienda
 * it reads the tenant of the transaction (withTenant), so other areas just call getSetting(trx, key).
 */
export async function getSetting<K extends SettingKey>(trx: Knex.Transaction, key: K, codAzienda?: string): Promise<SettingValue<K>> {
  const row = await trx('settings')
    .where({ chiave: key })
    .where('cod_azienda', codAzienda ?? trx.raw("current_setting('app.cod_azienda', true)"))
    .first('valore');
  if (!row) return SETTINGS_CATALOGUE[key].default as SettingValue<K>;
  // A stored value that no longer passes its schema (catalogue changed) falls back to the default.
  const parsed = SETTINGS_CATALOGUE[key].schema.safeParse(row.valore);
  return (parsed.success ? parsed.data : SETTINGS_CATALOGUE[key].default) as SettingValue<K>;
}

export async function listSettings(trx: Knex.Transaction, codAzienda: string): Promise<SettingView[]> {
  const rows = await trx('settings').where({ cod_azienda: codAzienda });
  const byKey = new Map(rows.map((r: { chiave: string }) => [r.chiave, r]));
  return SETTING_KEYS.map((k) => {
    const r = byKey.get(k) as { valore: unknown; updated_by: string; updated_at: Date } | undefined;
    const def = SETTINGS_CATALOGUE[k];
    return { chiave: k, valore: r ? r.valore : def.default, default: def.default, descrizione: def.descrizione, gruppo: def.gruppo, personalizzata: !!r, updated_by: r?.updated_by ?? null, updated_at: r?.updated_at ?? null };
  });
}

/** Validates the value with the key's own schema; the caller turns a failure into a 422 or a form message. */
export function parseSettingValue(key: SettingKey, value: unknown) {
  return SETTINGS_CATALOGUE[key].schema.safeParse(value);
}

export async function updateSetting(trx: Knex.Transaction, codAzienda: string, key: SettingKey, value: unknown, actor: string): Promise<SettingView> {
  const before = await getSetting(trx, key, codAzienda);
  await trx('settings').insert({ cod_azienda: codAzienda, chiave: key, valore: JSON.stringify(value), updated_by: actor, updated_at: new Date() })
    .onConflict(['cod_azienda', 'chiave']).merge(['valore', 'updated_by', 'updated_at']);
  await appendAudit(trx, { codAzienda, actor, action: 'setting.updated', entityType: 'setting', entityId: key, data: { before, after: value } });
  return (await listSettings(trx, codAzienda)).find((s) => s.chiave === key)!;
}
