import type { Knex } from 'knex';
import type { Condizione } from '../../../kit/conditions/condition.types';
import type { Classe, Famiglia, Soglia, StatoVersione, VersioneRegole } from '../risk.types';
import type { RegolaCaricata } from './engine.score';
import { seedDefaultModel } from './engine.seed';

/** Reading the model: rule sets with their rules (and each rule's factor), the thresholds. */

interface VersioneRow { id: string; versione: number; stato: StatoVersione; descrizione: string; basata_su: string | null }
interface RegolaRow {
  id: string; versione_id: string; fattore_id: string; fattore_codice: string; famiglia: Famiglia; codice: string; nome: string; descrizione: string;
  condizione: Condizione; punti: number; classe_minima: Classe | null; attiva: boolean; ordine: number;
}

const VERSIONE_COLUMNS = ['id', 'versione', 'stato', 'descrizione', 'basata_su'];

export async function rulesOf(trx: Knex.Transaction, codAzienda: string, versioneIds: string[]): Promise<RegolaCaricata[]> {
  if (!versioneIds.length) return [];
  const rows = await trx('rischio_regole as r').join('rischio_fattori as f', 'f.id', 'r.fattore_id')
    .where('r.cod_azienda', codAzienda).whereIn('r.versione_id', versioneIds)
    .orderBy([{ column: 'r.ordine' }, { column: 'r.codice' }])
    .select('r.id', 'r.versione_id', 'r.fattore_id', 'f.codice as fattore_codice', 'f.famiglia', 'r.codice', 'r.nome', 'r.descrizione',
      'r.condizione', 'r.punti', 'r.classe_minima', 'r.attiva', 'r.ordine') as RegolaRow[];
  return rows.map((r) => ({ ...r }));
}

async function withRules(trx: Knex.Transaction, codAzienda: string, v: VersioneRow): Promise<VersioneRegole> {
  return { ...v, regole: await rulesOf(trx, codAzienda, [v.id]) };
}

/** A rule set of the tenant with its rules; undefined when the id is not one of the tenant's. */
export async function findRuleSet(trx: Knex.Transaction, codAzienda: string, versioneId: string): Promise<VersioneRegole | undefined> {
  const v = await trx('rischio_versioni').where({ cod_azienda: codAzienda, id: versioneId }).first(VERSIONE_COLUMNS) as VersioneRow | undefined;
  return v ? withRules(trx, codAzienda, v) : undefined;
}

/** A rule set by id (the dry run's draft, an assessment's recorded version). Throws when it is not the tenant's. */
export async function loadRuleSet(trx: Knex.Transaction, codAzienda: string, versioneId: string): Promise<VersioneRegole> {
  const v = await findRuleSet(trx, codAzienda, versioneId);
  if (!v) throw new Error(`rule set ${versioneId} not found for tenant ${codAzienda}`);
  return v;
}

/** The tenant's active rule set; the default model (factors, rule set v1, thresholds) is seeded on first use. */
export async function activeRuleSet(trx: Knex.Transaction, codAzienda: string): Promise<VersioneRegole> {
  const find = () => trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'active' }).first(VERSIONE_COLUMNS) as Promise<VersioneRow | undefined>;
  let v = await find();
  if (!v) {
    await seedDefaultModel(trx, codAzienda);
    v = await find();
    if (!v) throw new Error(`tenant ${codAzienda} has no active rule set after seeding`);
  }
  return withRules(trx, codAzienda, v);
}

/** The tenant's policy thresholds, by increasing score (seeded with the default model on first use). */
export async function thresholds(trx: Knex.Transaction, codAzienda: string): Promise<Soglia[]> {
  const read = () => trx('rischio_soglie').where({ cod_azienda: codAzienda }).orderBy('punteggio_min')
    .select('id', 'classe', 'punteggio_min', 'livello_cdd', 'revisione_mesi', 'approvazione', 'descrizione') as Promise<Soglia[]>;
  let rows = await read();
  if (!rows.length) {
    await seedDefaultModel(trx, codAzienda);
    rows = await read();
  }
  return rows;
}
