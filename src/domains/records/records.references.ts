import type { Knex } from 'knex';
import { ValidationError, type FieldError } from '../../http/errors';

/**
 * The subjects a request names, checked in the tenant's transaction: one that does not exist,
 * belongs to another tenant (invisible under row-level security) or was deleted is a 422
 * naming its field.
 */
export async function assertSubjects(trx: Knex.Transaction, codAzienda: string, refs: Record<string, string>): Promise<void> {
  const codes = [...new Set(Object.values(refs))];
  const rows: { cod_anagrafe: string; stato: string }[] = codes.length
    ? await trx('anagrafe').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', codes).select('cod_anagrafe', 'stato')
    : [];
  const found = new Map(rows.map((r) => [r.cod_anagrafe, r.stato]));
  const errors: FieldError[] = [];
  for (const [path, cod] of Object.entries(refs)) {
    const stato = found.get(cod);
    if (!stato) errors.push({ path, message: 'Soggetto non trovato in questa azienda' });
    else if (stato === 'eliminato') errors.push({ path, message: 'Il soggetto è stato eliminato' });
  }
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
}

/** 422 with one field error. */
export const fieldError = (path: string, message: string) => new ValidationError([{ path, message }], message);
