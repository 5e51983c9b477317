import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Aggregato, Condizione } from '../../src/kit/conditions/condition.types';

/**
 * The benchmark's rule sets, written by the owner: a 30-rule version built on the tenant's seeded
 * default (its rules kept, movement-aggregate rules added over several windows until there are
 * 30), made active; then a draft derived from it with other points and one rule more, for the
 * dry run. Distinct windows and filters mean distinct aggregates, as a real rule set has.
 */
const agg = (fn: Aggregato['fn'], finestra_giorni: number, extra: Partial<Aggregato> = {}): Aggregato => ({ fn, finestra_giorni, ...extra });

const EXTRA_RULES: { codice: string; nome: string; famiglia: string; condizione: Condizione; punti: number }[] = [
  ...[30, 90, 180, 365].map((g) => ({ codice: `volume_${g}g`, nome: `Volume oltre la soglia su ${g} giorni`, famiglia: 'prodotto', condizione: { aggregato: agg('sum', g), op: 'gt', valore: g * 1_500 } as Condizione, punti: 4 })),
  ...[30, 90, 365].map((g) => ({ codice: `operazioni_${g}g`, nome: `Molte operazioni su ${g} giorni`, famiglia: 'prodotto', condizione: { aggregato: agg('count', g), op: 'gt', valore: g / 4 } as Condizione, punti: 3 })),
  ...[90, 365].map((g) => ({ codice: `contanti_quota_${g}g`, nome: `Quota di contante alta su ${g} giorni`, famiglia: 'prodotto', condizione: { aggregato: agg('cash_share', g), op: 'gt', valore: 0.05 } as Condizione, punti: 6 })),
  ...[90, 365].map((g) => ({ codice: `contanti_entrate_${g}g`, nome: `Versamenti in contante su ${g} giorni`, famiglia: 'prodotto', condizione: { aggregato: agg('sum', g, { segno: 'entrata', contanti: true }), op: 'gt', valore: 5_000 } as Condizione, punti: 5 })),
  ...[180, 365].map((g) => ({ codice: `controparti_${g}g`, nome: `Molte controparti su ${g} giorni`, famiglia: 'prodotto', condizione: { aggregato: agg('distinct_counterparties', g), op: 'gt', valore: 20 } as Condizione, punti: 3 })),
  ...[90, 365].map((g) => ({ codice: `paesi_controparti_${g}g`, nome: `Controparti in più paesi su ${g} giorni`, famiglia: 'geografia', condizione: { aggregato: agg('distinct_countries', g), op: 'gt', valore: 2 } as Condizione, punti: 4 })),
  { codice: 'uscite_estero_365g', nome: 'Uscite verso Germania e Francia', famiglia: 'geografia', condizione: { aggregato: agg('sum', 365, { segno: 'uscita', paesi_controparte: ['DE', 'FR'] }), op: 'gt', valore: 50_000 }, punti: 5 },
  { codice: 'crescita_90g', nome: 'Volume in crescita rispetto allo storico', famiglia: 'prodotto', condizione: { aggregato: agg('ratio_history', 90, { storico_giorni: 365 }), op: 'gt', valore: 1.5 }, punti: 5 },
  { codice: 'uscite_30g', nome: 'Uscite elevate nel mese', famiglia: 'prodotto', condizione: { aggregato: agg('sum', 30, { segno: 'uscita' }), op: 'gt', valore: 20_000 }, punti: 3 },
  { codice: 'entrate_180g', nome: 'Entrate elevate nel semestre', famiglia: 'prodotto', condizione: { aggregato: agg('sum', 180, { segno: 'entrata' }), op: 'gt', valore: 150_000 }, punti: 3 },
  { codice: 'residenza_ue', nome: 'Residenza in un altro paese UE', famiglia: 'geografia', condizione: { campo: 'geografia.paese_residenza', op: 'in', valore: ['DE', 'FR', 'ES'] }, punti: 5 },
  { codice: 'societa', nome: 'Persona giuridica', famiglia: 'cliente', condizione: { campo: 'cliente.tipo_soggetto', op: 'eq', valore: 'societa' }, punti: 4 },
  { codice: 'pep_bench', nome: 'Persona politicamente esposta', famiglia: 'cliente', condizione: { campo: 'cliente.pep', op: 'eq', valore: true }, punti: 20 },
  { codice: 'contanti_e_volume', nome: 'Contante e volume insieme', famiglia: 'prodotto', condizione: { tutti: [{ aggregato: agg('cash_share', 365), op: 'gt', valore: 0.03 }, { aggregato: agg('sum', 365), op: 'gt', valore: 400_000 }] }, punti: 6 },
  { codice: 'poche_operazioni_grandi', nome: 'Poche operazioni di importo alto', famiglia: 'prodotto', condizione: { tutti: [{ aggregato: agg('count', 365), op: 'lt', valore: 120 }, { aggregato: agg('sum', 365), op: 'gt', valore: 300_000 }] }, punti: 4 },
];

interface RuleRow { codice: string; nome: string; descrizione: string; fattore_id: string; condizione: Condizione; punti: number; classe_minima: string | null; attiva: boolean; ordine: number }

/** The active 30-rule version and a derived draft; answers their ids and rule counts. */
export async function seedRuleSets(owner: Knex, codAzienda: string, baseVersionId: string): Promise<{ activeId: string; activeRules: number; draftId: string; draftRules: number }> {
  const base = await owner('rischio_regole').where({ versione_id: baseVersionId }).orderBy('ordine') as RuleRow[];
  const factors = await owner('rischio_fattori').where({ cod_azienda: codAzienda }).select('id', 'famiglia') as { id: string; famiglia: string }[];
  const factorOf = (famiglia: string) => (factors.find((f) => f.famiglia === famiglia) ?? factors[0]!).id;
  const extra: RuleRow[] = EXTRA_RULES.filter((r) => !base.some((b) => b.codice === r.codice)).slice(0, Math.max(0, 30 - base.length))
    .map((r, i) => ({ codice: r.codice, nome: r.nome, descrizione: '', fattore_id: factorOf(r.famiglia), condizione: r.condizione, punti: r.punti, classe_minima: null, attiva: true, ordine: 1_000 + i }));
  const rules30 = [...base, ...extra];
  const { max } = await owner('rischio_versioni').where({ cod_azienda: codAzienda }).max('versione as max').first() as { max: number };
  const activeId = randomUUID();
  const draftId = randomUUID();
  await owner.transaction(async (trx) => {
    await trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'draft' }).delete().catch(() => undefined);
    await trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'active' }).update({ stato: 'retired', retired_by: 'bench', retired_at: trx.fn.now() });
    await trx('rischio_versioni').insert({ id: activeId, cod_azienda: codAzienda, versione: max + 1, stato: 'active', descrizione: 'Benchmark: 30 regole', basata_su: baseVersionId, created_by: 'bench', activated_by: 'bench', activated_at: trx.fn.now() });
    await insertRules(trx, codAzienda, activeId, rules30);
    await trx('rischio_versioni').insert({ id: draftId, cod_azienda: codAzienda, versione: max + 2, stato: 'draft', descrizione: 'Benchmark: bozza con punti diversi', basata_su: activeId, created_by: 'bench' });
    // The draft: every third rule weighs 5 points more, the rest as they are.
    await insertRules(trx, codAzienda, draftId, rules30.map((r, i) => ({ ...r, punti: i % 3 === 0 ? Math.min(100, r.punti + 5) : r.punti })));
  });
  return { activeId, activeRules: rules30.length, draftId, draftRules: rules30.length };
}

async function insertRules(trx: Knex.Transaction, codAzienda: string, versioneId: string, rules: RuleRow[]) {
  await trx('rischio_regole').insert(rules.map((r) => ({
    id: randomUUID(), cod_azienda: codAzienda, versione_id: versioneId, fattore_id: r.fattore_id, codice: r.codice, nome: r.nome, descrizione: r.descrizione,
    condizione: JSON.stringify(r.condizione), punti: r.punti, classe_minima: r.classe_minima, attiva: r.attiva, ordine: r.ordine, created_by: 'bench',
  })));
}
