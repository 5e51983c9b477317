import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, notFound, ValidationError } from '../../../http/errors';
import { isUuid } from '../../../kit/ids';
import { CLASSI, type Soglia } from '../risk.types';
import { CLASSE_LABELS } from './engine.labels';
import { audit, ensureModel, inTenant, parseInput, type ModelCall, type ModelDeps } from './engine.commands.shared';
import { thresholds } from './engine.rulesets';
import { thresholdCreateSchema, thresholdUpdateSchema, type ThresholdCreate, type ThresholdUpdate } from './engine.schemas';

export async function listThresholds(deps: ModelDeps, p: ModelCall): Promise<Soglia[]> {
  return inTenant(deps, p, (trx) => thresholds(trx, p.codAzienda));
}

/** The minimum scores must grow with the class (basso < medio < medio_alto < alto): otherwise a class could never apply. */
export function orderIssue(soglie: readonly Pick<Soglia, 'classe' | 'punteggio_min'>[]): string | null {
  const by = [...soglie].sort((a, b) => CLASSI.indexOf(a.classe) - CLASSI.indexOf(b.classe));
  for (let i = 1; i < by.length; i += 1) {
    const [lo, hi] = [by[i - 1]!, by[i]!];
    if (hi.punteggio_min <= lo.punteggio_min) {
      return `Il punteggio minimo di "${CLASSE_LABELS[hi.classe]}" (${hi.punteggio_min}) deve superare quello di "${CLASSE_LABELS[lo.classe]}" (${lo.punteggio_min}): le soglie crescono con la classe`;
    }
  }
  return null;
}

async function thresholdOr404(trx: Knex.Transaction, codAzienda: string, id: string): Promise<Soglia> {
  const s = isUuid(id) ? (await thresholds(trx, codAzienda)).find((x) => x.id === id) : undefined;
  if (!s) throw notFound('Soglia');
  return s;
}

/** A threshold for a class the tenant has none of (every class has one once the default model is seeded: then 409). */
export async function createThreshold(deps: ModelDeps, p: ModelCall & { input: ThresholdCreate }): Promise<Soglia> {
  const input = parseInput(thresholdCreateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`rischio-soglie:${p.codAzienda}`]);
    const current = await thresholds(trx, p.codAzienda);
    const same = current.find((s) => s.classe === input.classe);
    if (same) throw conflict('THRESHOLD_EXISTS', `La classe "${CLASSE_LABELS[input.classe]}" ha già la sua soglia: modificala`, { soglia_id: same.id, allowed_actions: ['modifica'] });
    const issue = orderIssue([...current, input]);
    if (issue) throw new ValidationError([{ path: 'punteggio_min', message: issue }]);
    const id = randomUUID();
    await trx('rischio_soglie').insert({ id, cod_azienda: p.codAzienda, ...input, updated_by: p.actor.username });
    await audit(trx, p, 'risk_model.threshold-create', 'rischio_soglia', id, { ...input });
    return thresholdOr404(trx, p.codAzienda, id);
  });
}

export async function updateThreshold(deps: ModelDeps, p: ModelCall & { id: string; input: ThresholdUpdate }): Promise<Soglia> {
  const input = parseInput(thresholdUpdateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`rischio-soglie:${p.codAzienda}`]);
    const before = await thresholdOr404(trx, p.codAzienda, p.id);
    const changes = Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && v !== before[k as keyof Soglia]));
    if (changes.punteggio_min !== undefined) {
      const issue = orderIssue((await thresholds(trx, p.codAzienda)).map((s) => (s.id === before.id ? { ...s, punteggio_min: changes.punteggio_min as number } : s)));
      if (issue) throw new ValidationError([{ path: 'punteggio_min', message: issue }]);
    }
    if (Object.keys(changes).length) {
      await trx('rischio_soglie').where({ cod_azienda: p.codAzienda, id: before.id }).update({ ...changes, updated_by: p.actor.username, updated_at: new Date() });
      await audit(trx, p, 'risk_model.threshold-update', 'rischio_soglia', before.id, { classe: before.classe, prima: Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof Soglia]])), dopo: changes });
    }
    return thresholdOr404(trx, p.codAzienda, before.id);
  });
}
