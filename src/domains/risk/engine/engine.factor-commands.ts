import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { notFound, ValidationError } from '../../../http/errors';
import { isUuid } from '../../../kit/ids';
import type { Famiglia, Fattore } from '../risk.types';
import { audit, ensureModel, inTenant, isUniqueViolation, parseInput, type ModelCall, type ModelDeps } from './engine.commands.shared';
import { factorCreateSchema, factorUpdateSchema, type FactorCreate, type FactorUpdate } from './engine.schemas';

export type FattoreVista = Fattore & { regole_attive: number };
const COLUMNS = ['f.id', 'f.codice', 'f.nome', 'f.famiglia', 'f.descrizione', 'f.attivo'];

/** Factors with the number of rules of the active rule set that use each. */
async function factors(trx: Knex.Transaction, codAzienda: string, where: (q: Knex.QueryBuilder) => void): Promise<FattoreVista[]> {
  const q = trx('rischio_fattori as f').where('f.cod_azienda', codAzienda)
    .select(...COLUMNS, trx.raw(`(select count(*)::int from rischio_regole r join rischio_versioni v on v.id = r.versione_id
      where r.cod_azienda = f.cod_azienda and r.fattore_id = f.id and v.stato = 'active' and r.attiva) as regole_attive`))
    .orderBy([{ column: 'f.famiglia' }, { column: 'f.codice' }]);
  where(q);
  return q as unknown as Promise<FattoreVista[]>;
}

async function factorOr404(trx: Knex.Transaction, codAzienda: string, id: string): Promise<FattoreVista> {
  const [f] = isUuid(id) ? await factors(trx, codAzienda, (q) => q.where('f.id', id)) : [];
  if (!f) throw notFound('Fattore', 'm');
  return f;
}

export async function listFactors(deps: ModelDeps, p: ModelCall & { famiglia?: Famiglia; attivo?: boolean }): Promise<FattoreVista[]> {
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    return factors(trx, p.codAzienda, (q) => {
      if (p.famiglia) q.where('f.famiglia', p.famiglia);
      if (p.attivo !== undefined) q.where('f.attivo', p.attivo);
    });
  });
}

export async function getFactor(deps: ModelDeps, p: ModelCall & { id: string }): Promise<FattoreVista> {
  return inTenant(deps, p, (trx) => factorOr404(trx, p.codAzienda, p.id));
}

export async function createFactor(deps: ModelDeps, p: ModelCall & { input: FactorCreate }): Promise<FattoreVista> {
  const input = parseInput(factorCreateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    const id = randomUUID();
    try {
      await trx.transaction(async (sp) => { await sp('rischio_fattori').insert({ id, cod_azienda: p.codAzienda, ...input, created_by: p.actor.username }); });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ValidationError([{ path: 'codice', message: `Esiste già un fattore con codice ${input.codice}` }]);
      throw err;
    }
    await audit(trx, p, 'risk_model.factor-create', 'rischio_fattore', id, { codice: input.codice, famiglia: input.famiglia });
    return factorOr404(trx, p.codAzienda, id);
  });
}

/** Name, description and whether it is in use; the code and the family stay (rules and past scores name them). */
export async function updateFactor(deps: ModelDeps, p: ModelCall & { id: string; input: FactorUpdate }): Promise<FattoreVista> {
  const input = parseInput(factorUpdateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    const before = await factorOr404(trx, p.codAzienda, p.id);
    const changes = Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && v !== before[k as keyof FattoreVista]));
    if (Object.keys(changes).length) {
      await trx('rischio_fattori').where({ cod_azienda: p.codAzienda, id: p.id }).update({ ...changes, updated_at: new Date() });
      await audit(trx, p, 'risk_model.factor-update', 'rischio_fattore', p.id, { codice: before.codice, modifiche: Object.keys(changes) });
    }
    return factorOr404(trx, p.codAzienda, p.id);
  });
}

/** A factor out of use: no new rule may use it; the rules of the active version keep scoring until a new version drops them. */
export async function deactivateFactor(deps: ModelDeps, p: ModelCall & { id: string }): Promise<FattoreVista> {
  return inTenant(deps, p, async (trx) => {
    const before = await factorOr404(trx, p.codAzienda, p.id);
    if (before.attivo) {
      await trx('rischio_fattori').where({ cod_azienda: p.codAzienda, id: p.id }).update({ attivo: false, updated_at: new Date() });
      await audit(trx, p, 'risk_model.factor-deactivate', 'rischio_fattore', p.id, { codice: before.codice });
    }
    return factorOr404(trx, p.codAzienda, p.id);
  });
}
