import type { Knex } from 'knex';
import type { ClasseRischio, CddLevelInput, CountryRole } from './cdd-level';

const CLASSES = new Set(['basso', 'medio', 'medio_alto', 'alto']);
const country = (v: unknown) => (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v.trim()) ? v.trim().toUpperCase() : null);

export interface CustomerForCdd {
  cod_anagrafe: string;
  tipo_soggetto: string;
  denominazione: string;
  classe_rischio: string | null;
  pep: boolean;
  stato: string;
}

/**
 * What the level rules read about a customer, in the caller's transaction: the record (PEP,
 * class, countries), the linked subjects (beneficial owners, representatives: PEP and
 * countries), the last completed questionnaire (cash, countries of operation) and the
 * screening matches not dismissed.
 */
export async function cddLevelInputs(trx: Knex.Transaction, codAnagrafe: string): Promise<{ customer: CustomerForCdd; input: CddLevelInput } | undefined> {
  // `select *`: the records area adds columns (paese_fiscale) this reads when present.
  const c = await trx('anagrafe').where({ cod_anagrafe: codAnagrafe }).first();
  if (!c) return undefined;
  const paesi: CddLevelInput['paesi'] = [];
  const add = (v: unknown, ruolo: CountryRole) => { const p = country(v); if (p) paesi.push({ paese: p, ruolo }); };
  add(c.paese_residenza, 'residenza');
  add(c.nazionalita, 'nazionalita');
  add(c.paese_fiscale, 'paese_fiscale');

  const linked: { cod_anagrafe: string; tipo: string; pep: boolean; nazionalita: string | null; paese_residenza: string | null }[] = await trx('legami as l')
    .join('anagrafe as a', function () { this.on('a.cod_azienda', 'l.cod_azienda').andOn('a.cod_anagrafe', 'l.cod_anagrafe_a'); })
    .where('l.cod_anagrafe_da', codAnagrafe)
    .select('a.cod_anagrafe', 'l.tipo', 'a.pep', 'a.nazionalita', 'a.paese_residenza');
  const pepCollegati: string[] = [];
  for (const l of linked) {
    const ruolo: CountryRole = l.tipo === 'titolare_effettivo' ? 'titolare_effettivo' : 'collegato';
    if (l.pep) pepCollegati.push(l.cod_anagrafe);
    add(l.nazionalita, ruolo);
    add(l.paese_residenza, ruolo);
  }

  const last = await trx('questionari').where({ cod_anagrafe: codAnagrafe, stato: 'completato' })
    .orderBy([{ column: 'completed_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first('risposte');
  const risposte = (last?.risposte ?? {}) as Record<string, unknown>;
  if (Array.isArray(risposte.paesi_operativita)) for (const p of risposte.paesi_operativita) add(p, 'operativita');

  // The screening area's matches of this customer that nobody dismissed as false positives.
  const [{ n }] = await trx('screening_matches as m').join('screening_subjects as s', 's.id', 'm.subject_id')
    .where('s.cod_anagrafe', codAnagrafe).whereIn('m.stato', ['open', 'assigned', 'true_match']).whereNull('m.deleted_at')
    .count<{ n: string }[]>({ n: '*' });

  const classe = CLASSES.has(c.classe_rischio) ? (c.classe_rischio as ClasseRischio) : null;
  return {
    customer: { cod_anagrafe: c.cod_anagrafe, tipo_soggetto: c.tipo_soggetto, denominazione: c.denominazione, classe_rischio: classe, pep: !!c.pep, stato: c.stato ?? 'attivo' },
    input: {
      classeRischio: classe, pep: !!c.pep || risposte.pep === true, pepCollegati, paesi,
      contanti: risposte.contanti === true, matchScreening: Number(n),
    },
  };
}
