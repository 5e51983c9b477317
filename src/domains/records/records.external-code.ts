import type { Knex } from 'knex';
import { conflict } from '../../http/errors';
import { Customer } from './customer.model';

/**
 * The customer's code in the source system (anagrafe.codice_esterno): unique per tenant when
 * present. Writers of one code are serialised with a transaction-scoped advisory lock, as the tax
 * key's are, so two concurrent writers of one code make one holder; the unique index
 * (anagrafe_codice_esterno) is the last guard.
 */

/** Letters, digits and . _ - / : (no spaces), up to 64 characters: codes as source systems write them. */
export const EXTERNAL_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/:-]{0,63}$/;
export const CODICE_ESTERNO_MESSAGE = 'Codice esterno non valido: fino a 64 caratteri tra lettere, cifre e . _ - / : (senza spazi)';

/** A code as typed (trimmed), or the Italian message saying what is wrong. */
export function checkExternalCode(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const s = raw.trim();
  return EXTERNAL_CODE_PATTERN.test(s) ? { ok: true, value: s } : { ok: false, message: CODICE_ESTERNO_MESSAGE };
}

export async function lockExternalCode(trx: Knex.Transaction, codAzienda: string, codice: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`anagrafe-esterno:${codAzienda}:${codice}`]);
}

/** The subject holding the code in the tenant of the transaction, or undefined. */
export async function findByExternalCode(trx: Knex.Transaction, codAzienda: string, codice: string): Promise<Customer | undefined> {
  return Customer.of(trx).where({ cod_azienda: codAzienda, codice_esterno: codice }).first();
}

/** 409: another subject holds the code (its cod_anagrafe in the answer). */
export const duplicateExternalCode = (codice: string, holder: string) => conflict('DUPLICATE_EXTERNAL_CODE',
  `Il codice esterno ${codice} è già di un altro soggetto: ${holder}`, { cod_anagrafe: holder, codice_esterno: codice });

/** Locks the code and refuses it when a subject other than `self` holds it. */
export async function claimExternalCode(trx: Knex.Transaction, codAzienda: string, codice: string, self?: string): Promise<void> {
  await lockExternalCode(trx, codAzienda, codice);
  const holder = await findByExternalCode(trx, codAzienda, codice);
  if (holder && holder.cod_anagrafe !== self) throw duplicateExternalCode(codice, holder.cod_anagrafe);
}
