import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { DEFAULT_FACTORS, DEFAULT_MODEL_DESCRIPTION, DEFAULT_RULES, DEFAULT_THRESHOLDS } from './engine.default-model';

/** Who the seeded rows say created them. */
export const SEED_ACTOR = 'sistema';

/**
 * Seeds the default model for a tenant that has none: its factors, rule set v1 (active) and
 * the thresholds, in the caller's transaction. Idempotent and safe under concurrency: a
 * transaction-scoped advisory lock per tenant serialises the first uses, and each part is
 * written only when the tenant has none of it (a tenant that deleted nothing but edited
 * everything keeps its own model).
 */
export async function seedDefaultModel(trx: Knex.Transaction, codAzienda: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`rischio-modello:${codAzienda}`]);
  const hasVersion = await trx('rischio_versioni').where({ cod_azienda: codAzienda }).first('id');
  const hasThresholds = await trx('rischio_soglie').where({ cod_azienda: codAzienda }).first('id');
  if (hasVersion && hasThresholds) return;
  const now = new Date();

  if (!hasThresholds) {
    await trx('rischio_soglie').insert(DEFAULT_THRESHOLDS.map((s) => ({ id: randomUUID(), cod_azienda: codAzienda, ...s, updated_by: SEED_ACTOR, updated_at: now })));
  }
  if (hasVersion) return;

  const existing = new Map((await trx('rischio_fattori').where({ cod_azienda: codAzienda }).select('id', 'codice') as { id: string; codice: string }[])
    .map((r) => [r.codice, r.id]));
  const missing = DEFAULT_FACTORS.filter((f) => !existing.has(f.codice)).map((f) => ({ id: randomUUID(), cod_azienda: codAzienda, ...f, created_by: SEED_ACTOR }));
  if (missing.length) await trx('rischio_fattori').insert(missing);
  for (const m of missing) existing.set(m.codice, m.id);

  const versioneId = randomUUID();
  await trx('rischio_versioni').insert({
    id: versioneId, cod_azienda: codAzienda, versione: 1, stato: 'active', descrizione: DEFAULT_MODEL_DESCRIPTION,
    created_by: SEED_ACTOR, activated_by: SEED_ACTOR, activated_at: now,
  });
  await trx('rischio_regole').insert(DEFAULT_RULES.map((r, i) => ({
    id: randomUUID(), cod_azienda: codAzienda, versione_id: versioneId, fattore_id: existing.get(r.fattore)!, codice: r.codice, nome: r.nome,
    descrizione: r.descrizione, condizione: JSON.stringify(r.condizione), punti: r.punti, classe_minima: r.classe_minima ?? null, attiva: true,
    ordine: (i + 1) * 10, created_by: SEED_ACTOR,
  })));
  await appendAudit(trx, {
    codAzienda, actor: SEED_ACTOR, action: 'risk_model.seed', entityType: 'rischio_versione', entityId: versioneId,
    data: { versione: 1, regole: DEFAULT_RULES.length, fattori: missing.length, soglie: hasThresholds ? 0 : DEFAULT_THRESHOLDS.length },
  });
}
