// The EDD area's public surface: what the customer file and the CDD process use.
import type { Knex } from 'knex';
import { casesForCustomer, type EddRow } from './edd.repo';

export { openEddCase, type OpenEddRequest } from './edd.service';
export { motiviForCustomer, standardStepsFor } from './edd.steps';
export { STATO_LABELS as EDD_STATO_LABELS, MOTIVO_LABELS as EDD_MOTIVO_LABELS } from './edd.labels';
export type { EddRow };

/** A customer's EDD cases, newest first, inside the caller's tenant transaction (RLS). */
export function eddCasesForCustomer(trx: Knex.Transaction, codAnagrafe: string): Promise<EddRow[]> {
  return casesForCustomer(trx, codAnagrafe);
}
// The states' colours, for the customer file's list of EDD cases (records area).
export { STATO_TONES as EDD_STATO_TONES } from './edd.labels';
