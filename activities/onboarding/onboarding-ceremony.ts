import type { Knex } from 'knex';
import type { OnboardingCeremonyOutcome } from '../../workflows/onboarding/onboarding.contract';
import { auditCase, json, lockCase, tx } from './onboarding.tx';

/**
 * Writes how a ceremony of the case ended, in the same transaction as its audit event:
 * the declarations' state, or the travel-rule declaration's (signed; or back to none when
 * the ceremony ended unsigned, as the workflow does). A ceremony the case has replaced
 * since, or an outcome already written, changes nothing (a retry, a repeated signal).
 */
export async function recordCeremonyOutcome(db: Knex, p: OnboardingCeremonyOutcome): Promise<void> {
  await tx(db, p, async (trx) => {
    const row = await lockCase(trx, p.caseId);
    const update = (fields: Record<string, unknown>) => trx('onboarding_cases').where({ id: p.caseId }).update({ ...fields, updated_at: new Date() });
    if (p.purpose === 'dichiarazioni') {
      if (row.declarations_ceremony_id !== p.ceremonyId || row.declarations_stato === p.outcome) return;
      await update({ declarations_stato: p.outcome });
    } else {
      const tr = (row.travel_rule ?? {}) as Record<string, unknown>;
      if ((row.travel_rule_ceremony_id ?? tr.ceremony_id) !== p.ceremonyId || tr.stato !== 'signing') return;
      await update(p.outcome === 'signed'
        ? { travel_rule: json({ ...tr, stato: 'signed' }) }
        : { travel_rule: json({ stato: 'none' }), travel_rule_ceremony_id: null });
    }
    await auditCase(trx, p, 'ceremony', { ceremony_id: p.ceremonyId, purpose: p.purpose, outcome: p.outcome });
  });
}
