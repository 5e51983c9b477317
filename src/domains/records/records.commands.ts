import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { conflict, notFound, ValidationError, type FieldError } from '../../http/errors';
import { Customer } from './customer.model';
import { CustomerVersion } from './customer-version.model';
import { nextCode } from './records.codes';
import { claimExternalCode } from './records.external-code';
import { isoDate } from './records.dates';
import {
  dedupeKey, isValidCodiceFiscale, isValidCodiceFiscalePersona, isValidPartitaIva, normalisePartitaIva, normaliseTaxId,
} from './tax-id';
import type { ClasseRischio, StatoAnagrafe, TipoSoggetto, UsoContanti } from './records.vocabulary';

/**
 * The customer record's commands: every write in the caller's tenant transaction, with its
 * version row (anagrafe_versioni) and its audit event in that same transaction.
 */

type Obj = Record<string, unknown>;

/** The fields of a customer record a caller gives (codes, tenant, versions and stamps are the command's). */
export interface CustomerFields {
  tipo_soggetto: TipoSoggetto;
  denominazione?: string | null;
  nome?: string | null;
  cognome?: string | null;
  codice_fiscale?: string | null;
  partita_iva?: string | null;
  codice_fiscale_estero?: string | null;
  paese_fiscale?: string | null;
  data_nascita?: string | null;
  luogo_nascita?: string | null;
  nazionalita?: string | null;
  paese_residenza?: string | null;
  indirizzo?: Obj | null;
  email?: string | null;
  telefono?: string | null;
  attivita?: string | null;
  pep?: boolean;
  classe_rischio?: ClasseRischio | null;
  punteggio_rischio?: number | null;
  /** The customer's code in the source system, unique per tenant (records.external-code.ts). */
  codice_esterno?: string | null;
  ateco?: string | null;
  professione?: string | null;
  data_onboarding?: string | null;
  /** The declared profile (records.declared.ts). */
  volume_mensile_atteso_eur?: number | null;
  uso_contanti_atteso?: UsoContanti | null;
  stato?: Exclude<StatoAnagrafe, 'eliminato'>;
  /** The subject's role when it was first recorded (cliente, legale_rappresentante, titolare_effettivo). */
  ruolo?: string;
  onboarding_case_id?: string | null;
  dati?: Obj;
}

/** The fields an update may change (the type of subject and the record's origin stay). */
export type CustomerPatch = Partial<Omit<CustomerFields, 'tipo_soggetto' | 'ruolo' | 'onboarding_case_id' | 'dati'>>;

/** Fields whose change re-screens the subject (sanctions and PEP lists match on them). */
export const SCREENING_FIELDS = ['denominazione', 'nome', 'cognome', 'data_nascita', 'nazionalita'] as const;

/** A customer record as plain JSON (dates as strings). */
export type CustomerRow = Obj & { cod_azienda: string; cod_anagrafe: string; versione: number; stato: string };

const UPPER_FIELDS = ['nazionalita', 'paese_residenza', 'paese_fiscale'] as const;

/** The fields as stored: tax ids normalised, countries upper case, the name of a person from its parts. */
export function normaliseFields<T extends Partial<CustomerFields>>(f: T): T {
  const out: Obj = { ...f };
  if (typeof f.codice_fiscale === 'string') out.codice_fiscale = normaliseTaxId(f.codice_fiscale) || null;
  if (typeof f.partita_iva === 'string') out.partita_iva = normalisePartitaIva(f.partita_iva) || null;
  if (typeof f.codice_fiscale_estero === 'string') out.codice_fiscale_estero = normaliseTaxId(f.codice_fiscale_estero) || null;
  for (const k of UPPER_FIELDS) if (typeof f[k] === 'string') out[k] = (f[k] as string).trim().toUpperCase() || null;
  if (f.data_nascita !== undefined) out.data_nascita = isoDate(f.data_nascita);
  if (f.data_onboarding !== undefined) out.data_onboarding = isoDate(f.data_onboarding);
  if (typeof f.codice_esterno === 'string') out.codice_esterno = f.codice_esterno.trim() || null;
  if (typeof f.ateco === 'string') out.ateco = f.ateco.replace(/\s+/g, '') || null;
  if (typeof f.volume_mensile_atteso_eur === 'number') out.volume_mensile_atteso_eur = Math.round(f.volume_mensile_atteso_eur * 100) / 100;
  return out as T;
}

/** The tax ids' check characters, as 422 field errors in Italian. */
export function taxIdErrors(f: Partial<CustomerFields>, tipo: string): FieldError[] {
  const errors: FieldError[] = [];
  if (f.codice_fiscale) {
    const cf = normaliseTaxId(f.codice_fiscale);
    const ok = tipo === 'societa' ? isValidCodiceFiscale(cf) : isValidCodiceFiscalePersona(cf);
    if (!ok) {
      errors.push({
        path: 'codice_fiscale',
        message: tipo === 'societa'
          ? 'Codice fiscale non valido: 11 cifre (o 16 caratteri) con il carattere di controllo corretto'
          : 'Codice fiscale non valido: 16 caratteri con il carattere di controllo corretto',
      });
    }
  }
  if (f.partita_iva && !isValidPartitaIva(f.partita_iva)) {
    errors.push({ path: 'partita_iva', message: 'Partita IVA non valida: 11 cifre con la cifra di controllo corretta' });
  }
  if (f.codice_fiscale_estero && !f.paese_fiscale) {
    errors.push({ path: 'paese_fiscale', message: 'Indica il paese che ha rilasciato il codice fiscale estero' });
  }
  return errors;
}

/** The record as a version's snapshot and the API show it: plain JSON, dates as strings. */
export function customerJson(c: Customer): CustomerRow {
  const json = c.toJSON() as Obj;
  return JSON.parse(JSON.stringify(json)) as CustomerRow;
}

const snapshotOf = (c: Customer) => {
  const { cod_azienda: _tenant, ...rest } = customerJson(c) as Obj;
  return rest;
};

/** Serialises the writers of one tax id in the tenant, so two concurrent creates of one person make one record. */
async function lockKey(trx: Knex.Transaction, codAzienda: string, chiave: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`anagrafe:${codAzienda}:${chiave}`]);
}

async function findByKey(trx: Knex.Transaction, codAzienda: string, chiave: string): Promise<Customer | undefined> {
  return Customer.of(trx).where({ cod_azienda: codAzienda, chiave_fiscale: chiave }).first();
}

function denominazioneOf(f: Partial<CustomerFields>): string {
  const name = [f.nome, f.cognome].map((x) => (x ?? '').trim()).filter(Boolean).join(' ');
  return (f.denominazione ?? '').trim() || name || '—';
}

async function insertCustomer(trx: Knex.Transaction, codAzienda: string, actor: string, f: CustomerFields, chiave: string | null): Promise<Customer> {
  if (f.codice_esterno) await claimExternalCode(trx, codAzienda, f.codice_esterno);
  const cod = await nextCode(trx, codAzienda, 'ANA');
  const row = {
    cod_azienda: codAzienda, cod_anagrafe: cod, tipo_soggetto: f.tipo_soggetto, denominazione: denominazioneOf(f),
    nome: f.nome ?? null, cognome: f.cognome ?? null, codice_fiscale: f.codice_fiscale ?? null, partita_iva: f.partita_iva ?? null,
    codice_fiscale_estero: f.codice_fiscale_estero ?? null, paese_fiscale: f.paese_fiscale ?? null, chiave_fiscale: chiave,
    data_nascita: f.data_nascita ?? null, luogo_nascita: f.luogo_nascita ?? null, nazionalita: f.nazionalita ?? null,
    paese_residenza: f.paese_residenza ?? null, indirizzo: f.indirizzo ? JSON.stringify(f.indirizzo) : null, email: f.email ?? null,
    telefono: f.telefono ?? null, attivita: f.attivita ?? null, pep: f.pep ?? false, classe_rischio: f.classe_rischio ?? null,
    punteggio_rischio: f.punteggio_rischio ?? null, codice_esterno: f.codice_esterno ?? null, ateco: f.ateco ?? null,
    professione: f.professione ?? null, data_onboarding: f.data_onboarding ?? null, volume_mensile_atteso_eur: f.volume_mensile_atteso_eur ?? null,
    uso_contanti_atteso: f.uso_contanti_atteso ?? null, stato: f.stato ?? 'attivo', ruolo: f.ruolo ?? 'cliente',
    onboarding_case_id: f.onboarding_case_id ?? null, dati: JSON.stringify(f.dati ?? {}), versione: 1, created_by: actor,
  };
  await trx('anagrafe').insert(row);
  const saved = (await Customer.of(trx).findById([codAzienda, cod]))!;
  const campi = Object.fromEntries(Object.entries(snapshotOf(saved))
    .filter(([k, v]) => EDITABLE.has(k) && v !== null && v !== false)
    .map(([k, v]) => [k, { old: null, new: v }]));
  await trx('anagrafe_versioni').insert({
    cod_azienda: codAzienda, cod_anagrafe: cod, versione: 1, operazione: 'create', changed_by: actor,
    campi: JSON.stringify(campi), snapshot: JSON.stringify(snapshotOf(saved)), changed_at: saved.created_at,
  });
  await appendAudit(trx, {
    codAzienda, actor, action: 'anagrafe.create', entityType: 'anagrafe', entityId: cod,
    data: { cod_anagrafe: cod, tipo_soggetto: f.tipo_soggetto, ruolo: row.ruolo, ...(f.classe_rischio ? { classe_rischio: f.classe_rischio } : {}), ...(f.onboarding_case_id ? { onboarding_case_id: f.onboarding_case_id } : {}) },
  });
  return saved;
}

const duplicate = (existing: Customer) => conflict('DUPLICATE_TAX_ID',
  `Esiste già un soggetto con questo identificativo fiscale: ${existing.cod_anagrafe}`, { cod_anagrafe: existing.cod_anagrafe });

/**
 * Creates a customer record. Its tax ids must pass their check characters (422 naming the
 * field); a subject already recorded with the same tax id, or holding the same external code,
 * is a 409 naming its cod_anagrafe.
 */
export async function createCustomer(trx: Knex.Transaction, codAzienda: string, actor: string, fields: CustomerFields): Promise<Customer> {
  const f = normaliseFields(fields);
  const errors = taxIdErrors(f, f.tipo_soggetto);
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  const chiave = dedupeKey(f);
  if (chiave) {
    await lockKey(trx, codAzienda, chiave);
    const existing = await findByKey(trx, codAzienda, chiave);
    if (existing) throw duplicate(existing);
  }
  return insertCustomer(trx, codAzienda, actor, f, chiave);
}

/**
 * One record per real person or company: the subject with the same verified tax id, or a new
 * record. Ids that fail their check characters are stored as given but match nobody (the
 * caller's own validation decides what it accepts: onboarding's forms, an import's rows).
 * A match changes nothing on the existing record but its missing external code, which the
 * caller's is (the key later imports name the customer by). An external code another subject
 * holds, or a match that already has another one, is a 409 (DUPLICATE_EXTERNAL_CODE).
 */
export async function createOrMatchCustomer(
  trx: Knex.Transaction, codAzienda: string, actor: string, fields: CustomerFields,
): Promise<{ codAnagrafe: string; created: boolean }> {
  const f = normaliseFields(fields);
  const chiave = dedupeKey(f);
  if (chiave) {
    await lockKey(trx, codAzienda, chiave);
    const existing = await findByKey(trx, codAzienda, chiave);
    if (existing) {
      if (f.codice_esterno && existing.codice_esterno !== f.codice_esterno) {
        await claimExternalCode(trx, codAzienda, f.codice_esterno, existing.cod_anagrafe);
        if (existing.codice_esterno) throw duplicateExternalCodeOf(existing, f.codice_esterno);
      }
      if (existing.stato === 'eliminato') await reactivate(trx, codAzienda, actor, existing);
      if (f.codice_esterno && !existing.codice_esterno) await fillExternalCode(trx, codAzienda, actor, existing.cod_anagrafe, f.codice_esterno);
      return { codAnagrafe: existing.cod_anagrafe, created: false };
    }
  }
  const saved = await insertCustomer(trx, codAzienda, actor, f, chiave);
  return { codAnagrafe: saved.cod_anagrafe, created: true };
}

const duplicateExternalCodeOf = (existing: Customer, codice: string) => conflict('DUPLICATE_EXTERNAL_CODE',
  `Il soggetto ${existing.cod_anagrafe}, con lo stesso identificativo fiscale, ha già il codice esterno ${existing.codice_esterno}, non ${codice}`,
  { cod_anagrafe: existing.cod_anagrafe, codice_esterno: existing.codice_esterno });

/** A matched subject without an external code takes the caller's: a new version of its record. */
async function fillExternalCode(trx: Knex.Transaction, codAzienda: string, actor: string, codAnagrafe: string, codice: string): Promise<void> {
  const before = await lockCustomer(trx, codAnagrafe);
  const { after } = await writeVersion(trx, before, actor, 'update', { codice_esterno: codice });
  await appendAudit(trx, {
    codAzienda, actor, action: 'anagrafe.update', entityType: 'anagrafe', entityId: codAnagrafe,
    data: { cod_anagrafe: codAnagrafe, versione: after.versione, campi: ['codice_esterno'] },
  });
}

/** A deleted subject who comes back (a new relationship) is the same record, active again, its history kept. */
async function reactivate(trx: Knex.Transaction, codAzienda: string, actor: string, existing: Customer): Promise<void> {
  const { after, campi } = await writeVersion(trx, existing, actor, 'update', {
    stato: 'attivo', eliminato_at: null, eliminato_da: null, motivo_eliminazione: null,
  });
  await appendAudit(trx, {
    codAzienda, actor, action: 'anagrafe.update', entityType: 'anagrafe', entityId: existing.cod_anagrafe,
    data: { cod_anagrafe: existing.cod_anagrafe, versione: after.versione, campi: Object.keys(campi), riattivato: true },
  });
}

/** The customer record of the tenant's transaction, or undefined (another tenant's is invisible). */
export async function getCustomer(trx: Knex.Transaction, codAnagrafe: string): Promise<Customer | undefined> {
  return Customer.of(trx).where({ cod_anagrafe: codAnagrafe }).first();
}

/**
 * The record as it was at the end of a day (Europe/Rome): the snapshot of its last version
 * changed by then, or undefined when the record did not exist yet.
 */
export async function customerAsOf(trx: Knex.Transaction, codAnagrafe: string, date: string): Promise<CustomerVersion | undefined> {
  return CustomerVersion.of(trx).where({ cod_anagrafe: codAnagrafe })
    .whereRaw("changed_at < ((cast(? as date) + 1)::timestamp at time zone 'Europe/Rome')", [date])
    .orderBy('versione', 'desc').first();
}

/** The fields a version compares (the stamps and the version counter are not the record's content). */
const EDITABLE = new Set([
  'tipo_soggetto', 'denominazione', 'nome', 'cognome', 'codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'paese_fiscale',
  'data_nascita', 'luogo_nascita', 'nazionalita', 'paese_residenza', 'indirizzo', 'email', 'telefono', 'attivita', 'pep',
  'classe_rischio', 'punteggio_rischio', 'stato', 'codice_esterno', 'ateco', 'professione', 'data_onboarding', 'volume_mensile_atteso_eur',
  'uso_contanti_atteso',
]);

// Deep equality, not JSON text: jsonb hands keys back in its own order, so an unchanged address is no change.
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);

async function lockCustomer(trx: Knex.Transaction, codAnagrafe: string): Promise<Customer> {
  const row = await Customer.of(trx).where({ cod_anagrafe: codAnagrafe }).forUpdate().first();
  if (!row) throw notFound('Soggetto', 'm');
  return row;
}

async function writeVersion(
  trx: Knex.Transaction, before: Customer, actor: string, operazione: 'update' | 'delete', changes: Obj,
): Promise<{ after: Customer; campi: Record<string, { old: unknown; new: unknown }> }> {
  const old = customerJson(before) as Obj;
  const campi = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, { old: old[k] ?? null, new: v ?? null }]));
  const versione = before.versione + 1;
  const dbChanges = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, k === 'indirizzo' && v ? JSON.stringify(v) : v]));
  await trx('anagrafe').where({ cod_azienda: before.cod_azienda, cod_anagrafe: before.cod_anagrafe })
    .update({ ...dbChanges, versione, updated_by: actor, updated_at: trx.fn.now() });
  const after = (await Customer.of(trx).findById([before.cod_azienda, before.cod_anagrafe]))!;
  await trx('anagrafe_versioni').insert({
    cod_azienda: before.cod_azienda, cod_anagrafe: before.cod_anagrafe, versione, operazione, changed_by: actor,
    changed_at: after.updated_at, campi: JSON.stringify(campi), snapshot: JSON.stringify(snapshotOf(after)),
  });
  return { after, campi };
}

export interface UpdateResult {
  customer: Customer;
  /** The fields changed (empty when the request changed nothing: no version is written then). */
  changed: string[];
  /** A field the screening lists match on changed: re-screen the subject once this transaction commits. */
  rescreen: boolean;
}

/**
 * Changes a customer record: a new version with the changed fields (old and new) and the
 * record after the change, the version counter bumped, an audit event. `versione`, when given,
 * is the version the caller edited: another change since then is a 409 (optimistic concurrency).
 */
export async function updateCustomer(
  trx: Knex.Transaction, codAzienda: string, actor: string, codAnagrafe: string, patch: CustomerPatch, versione?: number,
): Promise<UpdateResult> {
  const before = await lockCustomer(trx, codAnagrafe);
  if (before.stato === 'eliminato') throw conflict('CUSTOMER_DELETED', 'Il soggetto è stato eliminato: i suoi dati sono conservati ma non si modificano');
  if (versione !== undefined && versione !== before.versione) {
    throw conflict('VERSION_CONFLICT', `Il soggetto è stato modificato da altri (versione ${before.versione}): ricarica e ripeti la modifica`, { versione: before.versione });
  }
  const p = normaliseFields(patch);
  const old = customerJson(before) as Obj;
  const changes: Obj = {};
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined || !EDITABLE.has(k)) continue;
    if (!same(old[k], v)) changes[k] = v;
  }
  if (before.tipo_soggetto === 'persona_fisica' && ('nome' in changes || 'cognome' in changes) && p.denominazione === undefined) {
    const denominazione = denominazioneOf({ nome: (changes.nome ?? old.nome) as string | null, cognome: (changes.cognome ?? old.cognome) as string | null });
    if (denominazione !== old.denominazione) changes.denominazione = denominazione;
  }
  const merged = { ...old, ...changes } as unknown as CustomerFields;
  const touched = Object.fromEntries(['codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'paese_fiscale'].filter((k) => k in changes).map((k) => [k, merged[k as keyof CustomerFields]]));
  const errors = taxIdErrors(touched, before.tipo_soggetto);
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  if (!Object.keys(changes).length) return { customer: before, changed: [], rescreen: false };

  if (typeof changes.codice_esterno === 'string') await claimExternalCode(trx, codAzienda, changes.codice_esterno, codAnagrafe);
  const chiave = dedupeKey(merged);
  if (chiave !== before.chiave_fiscale) {
    if (chiave) {
      await lockKey(trx, codAzienda, chiave);
      const existing = await findByKey(trx, codAzienda, chiave);
      if (existing && existing.cod_anagrafe !== codAnagrafe) throw duplicate(existing);
    }
    changes.chiave_fiscale = chiave;
  }
  const { after, campi } = await writeVersion(trx, before, actor, 'update', changes);
  const changed = Object.keys(campi).filter((k) => k !== 'chiave_fiscale');
  await appendAudit(trx, {
    codAzienda, actor, action: 'anagrafe.update', entityType: 'anagrafe', entityId: codAnagrafe,
    data: { cod_anagrafe: codAnagrafe, versione: after.versione, campi: changed },
  });
  return { customer: after, changed, rescreen: changed.some((k) => (SCREENING_FIELDS as readonly string[]).includes(k)) };
}

/** The subject's open relationships (a role not ended on a relationship not closed). */
export async function openRelationshipsOf(trx: Knex.Transaction, codAnagrafe: string): Promise<string[]> {
  const rows = await trx('rapporti_soggetti as rs')
    .join('rapporti as r', function () { this.on('r.cod_azienda', 'rs.cod_azienda').andOn('r.cod_rapporto', 'rs.cod_rapporto'); })
    .where('rs.cod_anagrafe', codAnagrafe).whereNull('rs.al').whereNot('r.stato', 'chiuso')
    .distinct('r.cod_rapporto').orderBy('r.cod_rapporto');
  return rows.map((r: { cod_rapporto: string }) => r.cod_rapporto);
}

/**
 * Soft delete (elimina): the record stays for the 10-year retention (art. 31 d.lgs. 231/2007),
 * marked 'eliminato' with who, when and why. Refused while the subject has open relationships.
 */
export async function softDeleteCustomer(
  trx: Knex.Transaction, codAzienda: string, actor: string, codAnagrafe: string, motivo: string,
): Promise<Customer> {
  const before = await lockCustomer(trx, codAnagrafe);
  if (before.stato === 'eliminato') throw conflict('CUSTOMER_DELETED', 'Il soggetto è già stato eliminato');
  const open = await openRelationshipsOf(trx, codAnagrafe);
  if (open.length) {
    throw conflict('OPEN_RELATIONSHIPS', `Il soggetto ha rapporti aperti (${open.join(', ')}): chiudili prima di eliminarlo`, { rapporti: open });
  }
  const { after } = await writeVersion(trx, before, actor, 'delete', {
    stato: 'eliminato', eliminato_at: new Date().toISOString(), eliminato_da: actor, motivo_eliminazione: motivo,
  });
  await appendAudit(trx, {
    codAzienda, actor, action: 'anagrafe.delete', entityType: 'anagrafe', entityId: codAnagrafe,
    data: { cod_anagrafe: codAnagrafe, versione: after.versione, motivo },
  });
  return after;
}
