import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { conflict, notFound } from '../../http/errors';
import { Customer } from './customer.model';
import { customerJson } from './records.commands';
import type { ClasseRischio } from './records.vocabulary';

export interface SetRiskClassInput {
  codAzienda: string;
  codAnagrafe: string;
  classe: ClasseRischio;
  punteggio: number | null;
  /** Who released the class (a user's username, or `system`). */
  actor: string;
  /** What set it: the released assessment's code (VAL-000001). */
  riferimento: string;
}

export interface SetRiskClassResult {
  /** The class before (null when the customer had none). */
  da: ClasseRischio | null;
  a: ClasseRischio;
  /** False when class and score were already these: no version was written. */
  changed: boolean;
  versione: number;
}

/**
 * The risk area's one write to the customer record: the class in force and its score, set by a
 * released assessment. Like updateCustomer it writes a version (old and new of the two fields,
 * the record after) and an audit event in the caller's transaction, and bumps the record's
 * version counter (a form opened before it answers 409, as for any change). Unlike it, it
 * touches no other field, never re-screens (names did not change) and is no "change of the
 * customer's data" for the risk events sweep, which skips versions that change only these two
 * fields: a release does not start the next assessment.
 */
export async function setRiskClass(trx: Knex.Transaction, p: SetRiskClassInput): Promise<SetRiskClassResult> {
  const before = await Customer.of(trx).where({ cod_anagrafe: p.codAnagrafe }).forUpdate().first();
  if (!before) throw notFound('Soggetto', 'm');
  if (before.stato === 'eliminato') throw conflict('CUSTOMER_DELETED', 'Il soggetto è stato eliminato: la sua classe di rischio non si modifica');
  const old = customerJson(before) as Record<string, unknown>;
  const da = (old.classe_rischio ?? null) as ClasseRischio | null;
  const changes: Record<string, unknown> = {};
  if (da !== p.classe) changes.classe_rischio = p.classe;
  if ((old.punteggio_rischio ?? null) !== p.punteggio) changes.punteggio_rischio = p.punteggio;
  if (!Object.keys(changes).length) return { da, a: p.classe, changed: false, versione: before.versione };

  const versione = before.versione + 1;
  await trx('anagrafe').where({ cod_azienda: p.codAzienda, cod_anagrafe: p.codAnagrafe })
    .update({ ...changes, versione, updated_by: p.actor, updated_at: trx.fn.now() });
  const after = (await Customer.of(trx).findById([p.codAzienda, p.codAnagrafe]))!;
  const { cod_azienda: _tenant, ...snapshot } = customerJson(after) as Record<string, unknown>;
  const campi = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, { old: old[k] ?? null, new: v }]));
  await trx('anagrafe_versioni').insert({
    cod_azienda: p.codAzienda, cod_anagrafe: p.codAnagrafe, versione, operazione: 'update', changed_by: p.actor,
    changed_at: after.updated_at, campi: JSON.stringify(campi), snapshot: JSON.stringify(snapshot),
  });
  await appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor, action: 'anagrafe.risk_class', entityType: 'anagrafe', entityId: p.codAnagrafe,
    data: { cod_anagrafe: p.codAnagrafe, versione, campi: Object.keys(changes), da, a: p.classe, punteggio: p.punteggio, riferimento: p.riferimento },
  });
  return { da, a: p.classe, changed: da !== p.classe, versione };
}
