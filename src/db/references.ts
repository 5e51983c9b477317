import type { Knex } from 'knex';
import type { z } from 'zod';
import { withTenant } from './tenant';
import { ValidationError, type FieldError } from '../http/errors';
import { isUuid } from '../kit/ids';

/**
 * What a field inside a request body may point at. Each lookup names the tenant explicitly
 * (besides row-level security), so a reference is found only among the tenant's own records:
 * another tenant's record and a record that does not exist get the same answer.
 */
const LOOKUPS = {
  /** An active user of the tenant (an assignee). */
  utente: {
    message: 'Utente non trovato in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      isUuid(v) ? trx('utenti').where({ cod_utente: v, cod_azienda: tenant, attivo: true }).first('cod_utente') : undefined,
  },
  /** A subject of the tenant: a customer in the registry or a screened subject. */
  soggetto: {
    message: 'Soggetto non trovato in questa azienda',
    find: async (trx: Knex.Transaction, tenant: string, v: string) =>
      (await trx('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: v }).first('cod_anagrafe'))
      ?? trx('screening_subjects').where({ cod_azienda: tenant, cod_anagrafe: v }).first('cod_anagrafe'),
  },
  /** A customer of the registry (anagrafe) only: what a movement or an alert is about. */
  cliente: {
    message: 'Cliente non trovato in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) => trx('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: v }).first('cod_anagrafe'),
  },
  /** A relationship (rapporto) of the tenant. */
  rapporto: {
    message: 'Rapporto non trovato in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) => trx('rapporti').where({ cod_azienda: tenant, cod_rapporto: v }).first('cod_rapporto'),
  },
  /** The workflow of one of the tenant's records (a case, an onboarding case, a periodic review). */
  workflow: {
    message: 'Processo non trovato in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      trx.first('workflow_id').from(trx.union([
        trx('cases').where({ cod_azienda: tenant, workflow_id: v }).select('workflow_id'),
        trx('onboarding_cases').where({ cod_azienda: tenant, workflow_id: v }).select('workflow_id'),
        trx('cdd_reviews').where({ cod_azienda: tenant, workflow_id: v }).select('workflow_id'),
      ], true).as('w')),
  },
  /** A CDD task of the tenant, by id or by code (CDD-000001); the caller gets its customer. */
  cdd_pratica: {
    message: 'Pratica di adeguata verifica non trovata in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      trx('cdd_pratiche').where({ cod_azienda: tenant, ...(isUuid(v) ? { id: v } : { cod_pratica: v }) }).first('id', 'cod_anagrafe'),
  },
  /** A risk assessment of the tenant, by id or by code (VAL-000001). */
  valutazione: {
    message: 'Valutazione non trovata in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      trx('rischio_valutazioni').where({ cod_azienda: tenant, ...(isUuid(v) ? { id: v } : { cod_valutazione: v }) }).first('id'),
  },
  /** A version of the tenant's risk rules. */
  rischio_versione: {
    message: 'Versione delle regole non trovata in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      isUuid(v) ? trx('rischio_versioni').where({ cod_azienda: tenant, id: v }).first('id') : undefined,
  },
  /** An onboarding case of the tenant. */
  pratica_onboarding: {
    message: 'Pratica di onboarding non trovata in questa azienda',
    find: (trx: Knex.Transaction, tenant: string, v: string) =>
      isUuid(v) ? trx('onboarding_cases').where({ cod_azienda: tenant, id: v }).first('id') : undefined,
  },
} as const;

export type ReferenceKind = keyof typeof LOOKUPS;
/** Field path (as the 422 names it) -> what it must reference; absent values are not checked. */
export type References = Record<string, { kind: ReferenceKind; value: string | null | undefined }>;
/** What each reference found, by field path (the columns its lookup reads). */
export type Resolved = Record<string, Record<string, unknown>>;

/** Checks every reference in one transaction of the tenant; each one not found is a 422 naming its field. */
export async function assertReferencesInTenant(trx: Knex.Transaction, tenant: string, refs: References): Promise<Resolved> {
  const errors: FieldError[] = [];
  const resolved: Resolved = {};
  for (const [path, { kind, value }] of Object.entries(refs)) {
    if (value === null || value === undefined || value === '') continue;
    const found = await LOOKUPS[kind].find(trx, tenant, value) as Record<string, unknown> | undefined;
    if (found) resolved[path] = found;
    else errors.push({ path, message: LOOKUPS[kind].message });
  }
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  return resolved;
}

/** The same, in a transaction of its own (for commands that hand the write to a workflow). */
export function checkReferences(db: Knex, tenant: string, actor: string, refs: References): Promise<Resolved> {
  return withTenant(db, { codAzienda: tenant, actor }, (trx) => assertReferencesInTenant(trx, tenant, refs));
}

/**
 * Every kind of record a body field may name: the lookups above, and records their own area
 * checks against the record they belong to (a document, a risk factor, a node of one
 * verification's structure, a beneficial owner of one onboarding case, a customer's movement).
 */
export type ReferenceTarget = ReferenceKind | 'documento' | 'rischio_fattore' | 'nodo_struttura' | 'titolare_pratica' | 'movimento';

/**
 * Declares a body field a reference to another record (`x-reference` in the OpenAPI document).
 * test/api/reference-walk.test.ts sends every field so marked pointing at another tenant's record
 * and at nothing, and expects a 422 naming it; a field that looks like a reference (cod_*, *_id,
 * an assignee, a uuid) must carry the mark or be listed there as not one.
 */
export const refersTo = <T extends z.ZodType>(target: ReferenceTarget, schema: T): T => schema.meta({ 'x-reference': target });
