import type { Knex } from 'knex';
import { z } from 'zod';
import { appendAudit } from '../audit';

// Each setting has one type. The API takes it as JSON of that type (a number stays a number, a
// boolean a boolean: anything else is a 422); form posts send strings, converted by the form schema.
const formNumber = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim().replace(',', '.'))) : v);
const BOOLS: Record<string, boolean> = { true: true, '1': true, on: true, si: true, false: false, '0': false, off: false, no: false };
const formBool = (v: unknown) => (typeof v === 'string' ? BOOLS[v.toLowerCase()] ?? v : v);

function typed<T extends z.ZodType>(tipo: 'integer' | 'number' | 'boolean', api: T, toValue: (v: unknown) => unknown) {
  return { tipo, api, schema: z.preprocess(toValue, api) };
}
const int = (min: number, max: number) => typed('integer', z.number({ error: 'Indica un numero intero' }).int('Indica un numero intero').min(min, `Minimo ${min}`).max(max, `Massimo ${max}`), formNumber);
const ratio = () => typed('number', z.number({ error: 'Indica un numero tra 0 e 1' }).min(0, 'Minimo 0').max(1, 'Massimo 1'), formNumber);
const bool = () => typed('boolean', z.boolean({ error: 'Indica sì o no' }), formBool);

interface SettingDef {
  tipo: 'integer' | 'number' | 'boolean'; api: z.ZodType; schema: z.ZodType; default: unknown; descrizione: string; gruppo: string;
  /** An older, wider setting whose stored value applies when the tenant never set this one (before the default). */
  fallback?: string;
}

/** The settings a tenant may change. Each has its own type and validation; unknown keys are refused. */
export const SETTINGS_CATALOGUE = {
  // Per priority (docs/processes.md, "SLA per priority"); a tenant that saved the single SLA of
  // earlier releases keeps it for every priority it has not set on its own.
  'case.sla_days.critica': { ...int(1, 365), default: 3, fallback: 'case.sla_days', descrizione: 'Giorni entro cui chiudere un caso di priorità critica (SLA)', gruppo: 'Casi' },
  'case.sla_days.alta': { ...int(1, 365), default: 10, fallback: 'case.sla_days', descrizione: 'Giorni entro cui chiudere un caso di priorità alta (SLA)', gruppo: 'Casi' },
  'case.sla_days.media': { ...int(1, 365), default: 30, fallback: 'case.sla_days', descrizione: 'Giorni entro cui chiudere un caso di priorità media (SLA)', gruppo: 'Casi' },
  'case.sla_days.bassa': { ...int(1, 365), default: 60, fallback: 'case.sla_days', descrizione: 'Giorni entro cui chiudere un caso di priorità bassa (SLA)', gruppo: 'Casi' },
  'case.sla_days': { ...int(1, 365), default: 30, descrizione: 'Giorni entro cui chiudere un caso, per ogni priorità senza un valore proprio (impostazione precedente: vale solo se salvata)', gruppo: 'Casi' },
  'sos.evaluation_days': { ...int(1, 365), default: 30, descrizione: 'Giorni entro cui il delegato SOS valuta una segnalazione prima che sia segnalata al responsabile antiriciclaggio', gruppo: 'Segnalazioni' },
  'filing.goaml_rentity_id': { ...int(0, 2_147_483_647), default: 0, descrizione: 'Codice del soggetto segnalante presso la FIU nel portale goAML (rentity_id); 0 se non assegnato', gruppo: 'Segnalazioni' },
  'screening.match_threshold': { ...ratio(), default: 0.85, descrizione: 'Punteggio minimo perché un nominativo sia una corrispondenza', gruppo: 'Screening' },
  'screening.review_threshold': { ...ratio(), default: 0.7, descrizione: 'Punteggio minimo perché un nominativo vada in revisione', gruppo: 'Screening' },
  'screening.four_eyes': { ...bool(), default: true, descrizione: 'La risoluzione di una corrispondenza richiede un secondo operatore', gruppo: 'Screening' },
  'monitoring.soglia_quattro_occhi': {
    ...int(0, 101), default: 70, gruppo: 'Monitoraggio',
    descrizione: 'Punteggio da cui archiviare un alert (falso positivo o giustificato) richiede la conferma di una seconda persona (101: mai)',
  },
  'monitoring.tolleranza_volume': {
    ...int(0, 1000), default: 50, gruppo: 'Monitoraggio',
    descrizione: 'Scostamento massimo, in percentuale, tra gli alert del backtest di una bozza e quelli della versione in vigore perché possa entrare in vigore',
  },
  'monitoring.alert_max_nuova_regola': {
    ...int(0, 100000), default: 100, gruppo: 'Monitoraggio',
    descrizione: 'Alert all\'anno ogni 10.000 clienti che una regola nuova (senza versione in vigore) può generare nel backtest per entrare in vigore',
  },
  'cdd.review_years_high': { ...int(1, 10), default: 1, descrizione: 'Anni tra due verifiche periodiche, rischio alto', gruppo: 'Adeguata verifica' },
  'cdd.review_years_medium_high': { ...int(1, 10), default: 2, descrizione: 'Anni tra due verifiche periodiche, rischio medio-alto', gruppo: 'Adeguata verifica' },
  'cdd.review_years_medium': { ...int(1, 10), default: 3, descrizione: 'Anni tra due verifiche periodiche, rischio medio', gruppo: 'Adeguata verifica' },
  'cdd.review_years_low': { ...int(1, 10), default: 5, descrizione: 'Anni tra due verifiche periodiche, rischio basso', gruppo: 'Adeguata verifica' },
  'cdd.task_days': { ...int(1, 365), default: 30, descrizione: 'Giorni entro cui completare una pratica di adeguata verifica', gruppo: 'Adeguata verifica' },
  'cdd.analyst_can_complete': { ...bool(), default: true, descrizione: 'Un operatore può completare le pratiche di adeguata verifica semplificata o ordinaria (sempre con quattro occhi)', gruppo: 'Adeguata verifica' },
  'cdd.document_expiry_notice_days': { ...int(1, 365), default: 60, descrizione: 'Giorni prima della scadenza di un documento in cui si apre la pratica di aggiornamento', gruppo: 'Adeguata verifica' },
  'verifiche.validita_giorni': { ...int(1, 3650), default: 365, descrizione: 'Giorni di validità di una verifica KYC o KYB dalla sua apertura (prima, se scade un documento su cui si basa)', gruppo: 'Verifiche' },
  'onboarding.draft_expiry_days': { ...int(1, 365), default: 30, descrizione: 'Giorni di inattività dopo cui una pratica di onboarding in bozza scade', gruppo: 'Onboarding' },
  'onboarding.info_reminder_days': { ...int(1, 60), default: 7, descrizione: 'Giorni dopo una richiesta di integrazione entro cui il cliente riceve un promemoria', gruppo: 'Onboarding' },
  'onboarding.info_expiry_days': { ...int(1, 365), default: 30, descrizione: 'Giorni dopo una richiesta di integrazione senza risposta entro cui la pratica scade', gruppo: 'Onboarding' },
  'onboarding.link_ttl_hours': { ...int(1, 720), default: 72, descrizione: 'Ore di validità di un link di ripresa inviato al cliente', gruppo: 'Onboarding' },
  'onboarding.pubblico': { ...bool(), default: true, descrizione: 'Il modulo pubblico di onboarding accetta nuove pratiche', gruppo: 'Onboarding' },
  'onboarding.max_documents': { ...int(1, 500), default: 30, descrizione: 'Numero massimo di documenti che il cliente può caricare in una pratica di onboarding', gruppo: 'Onboarding' },
  'onboarding.max_documents_mb': { ...int(1, 10240), default: 100, descrizione: 'Dimensione totale massima, in MB, dei documenti caricati in una pratica di onboarding', gruppo: 'Onboarding' },
} satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS_CATALOGUE;
export const SETTING_KEYS = Object.keys(SETTINGS_CATALOGUE) as SettingKey[];
export type SettingValue<K extends SettingKey> = (typeof SETTINGS_CATALOGUE)[K]['default'];
export const isSettingKey = (k: string): k is SettingKey => k in SETTINGS_CATALOGUE;

/** The API's update: the key chooses the type of `valore` (the OpenAPI document lists one variant per key). */
export const settingUpdateSchema = z.discriminatedUnion('chiave', SETTING_KEYS.map((k) => z.object({ chiave: z.literal(k), valore: SETTINGS_CATALOGUE[k].api })) as unknown as [z.ZodObject, ...z.ZodObject[]], {
  error: (i) => (i.code === 'invalid_union' ? 'Impostazione sconosciuta' : undefined),
});

export interface SettingView {
  chiave: SettingKey; tipo: SettingDef['tipo']; valore: unknown; default: unknown; descrizione: string; gruppo: string; personalizzata: boolean;
  updated_by: string | null; updated_at: Date | null;
  /** The older setting the value comes from, when the tenant saved that one and not this (pages only). */
  ereditata_da?: string;
}

const fallbackOf = (key: SettingKey): string | undefined => (SETTINGS_CATALOGUE[key] as SettingDef).fallback;

/**
 * A tenant's value, or the default when the tenant never changed it. Without codAzienda
 * it reads the tenant of the transaction (withTenant), so other areas just call getSetting(trx, key).
 */
export async function getSetting<K extends SettingKey>(trx: Knex.Transaction, key: K, codAzienda?: string): Promise<SettingValue<K>> {
  const fallback = fallbackOf(key);
  const rows: { chiave: string; valore: unknown }[] = await trx('settings')
    .whereIn('chiave', fallback ? [key, fallback] : [key])
    .where('cod_azienda', codAzienda ?? trx.raw('(select app_current_tenant())'))
    .select('chiave', 'valore');
  const row = rows.find((r) => r.chiave === key) ?? rows.find((r) => r.chiave === fallback);
  if (!row) return SETTINGS_CATALOGUE[key].default as SettingValue<K>;
  // A stored value that no longer passes its schema (catalogue changed) falls back to the default.
  const parsed = SETTINGS_CATALOGUE[key].schema.safeParse(row.valore);
  return (parsed.success ? parsed.data : SETTINGS_CATALOGUE[key].default) as SettingValue<K>;
}

export async function listSettings(trx: Knex.Transaction, codAzienda: string): Promise<SettingView[]> {
  const rows = await trx('settings').where({ cod_azienda: codAzienda });
  const byKey = new Map(rows.map((r: { chiave: string }) => [r.chiave, r]));
  return SETTING_KEYS.map((k) => {
    type Row = { valore: unknown; updated_by: string; updated_at: Date };
    const r = byKey.get(k) as Row | undefined;
    const def = SETTINGS_CATALOGUE[k];
    const fallback = fallbackOf(k);
    const inherited = !r && fallback ? byKey.get(fallback) as Row | undefined : undefined;
    const valore = r ? r.valore : inherited && def.schema.safeParse(inherited.valore).success ? inherited.valore : def.default;
    return {
      chiave: k, tipo: def.tipo, valore, default: def.default, descrizione: def.descrizione, gruppo: def.gruppo, personalizzata: !!r,
      updated_by: r?.updated_by ?? null, updated_at: r?.updated_at ?? null, ...(inherited && valore === inherited.valore ? { ereditata_da: fallback } : {}),
    };
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

const settingValue = z.union([z.number(), z.boolean()]);
export const settingResponse = z.object({
  chiave: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]), tipo: z.enum(['integer', 'number', 'boolean']), valore: settingValue, default: settingValue,
  descrizione: z.string(), gruppo: z.string(), personalizzata: z.boolean(), updated_by: z.string().nullable(), updated_at: z.string().nullable(),
});
export const settingsListResponse = z.object({ items: z.array(settingResponse) });
