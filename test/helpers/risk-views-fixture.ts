import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * A small scored portfolio written as the engine and the assessment process would leave it
 * (the risk views only read): a rule set, customers in each segment and several countries, their
 * current scores with probability and impact, a history over past months, and assessments in the
 * states the pages list. Codes are the fixture's own (ANA-RV…, VAL-9…) so they never meet real ones.
 */
export interface RiskCustomer {
  cod: string; nome: string; tipo: 'persona_fisica' | 'ditta_individuale' | 'societa'; paese: string | null;
  punteggio: number; classe: 'basso' | 'medio' | 'medio_alto' | 'alto'; effettiva?: 'basso' | 'medio' | 'medio_alto' | 'alto' | null;
  impatto: 1 | 2 | 3 | 4;
  /** Past calculations: [months ago (end of that month minus a day), class]. */
  storico?: [number, 'basso' | 'medio' | 'medio_alto' | 'alto'][];
  stato?: string;
}

const ORDINAL = { basso: 1, medio: 2, medio_alto: 3, alto: 4 } as const;

export const RISK_CUSTOMERS: RiskCustomer[] = [
  { cod: 'ANA-RV0001', nome: 'Mario Rossi', tipo: 'persona_fisica', paese: 'IT', punteggio: 5, classe: 'basso', impatto: 1, storico: [[3, 'medio']] },
  { cod: 'ANA-RV0002', nome: 'Lucia Bianchi', tipo: 'persona_fisica', paese: 'IT', punteggio: 12, classe: 'basso', impatto: 2 },
  { cod: 'ANA-RV0003', nome: 'Officina Neri di Paolo Neri', tipo: 'ditta_individuale', paese: 'IT', punteggio: 24, classe: 'medio', impatto: 2 },
  { cod: 'ANA-RV0004', nome: 'Alpen Handel GmbH', tipo: 'societa', paese: 'DE', punteggio: 38, classe: 'medio_alto', impatto: 3, storico: [[5, 'medio']] },
  { cod: 'ANA-RV0005', nome: 'Gulf Trading FZE', tipo: 'societa', paese: 'AE', punteggio: 62, classe: 'alto', impatto: 4 },
  // A PEP: the floor keeps it medium-high whatever its score (calculated and in force).
  { cod: 'ANA-RV0006', nome: 'Giulia Verdi', tipo: 'persona_fisica', paese: 'IT', punteggio: 15, classe: 'medio_alto', impatto: 1 },
  // Overridden and released: calculated medium, high in force.
  { cod: 'ANA-RV0007', nome: 'Import Export Srl', tipo: 'societa', paese: 'IR', punteggio: 30, classe: 'medio', effettiva: 'alto', impatto: 4 },
  { cod: 'ANA-RV0008', nome: 'Anna Esposito', tipo: 'persona_fisica', paese: 'FR', punteggio: -5, classe: 'basso', impatto: 1 },
  // Deleted customers are not part of the portfolio.
  { cod: 'ANA-RV0009', nome: 'Cliente Cancellato', tipo: 'persona_fisica', paese: 'IT', punteggio: 70, classe: 'alto', impatto: 4, stato: 'eliminato' },
];
/** Customers of the tenant with no score at all. */
export const UNSCORED = ['ANA-RV0101', 'ANA-RV0102'];

export interface SeededRisk { versioneId: string; assessments: Record<'pending' | 'completed' | 'released', { id: string; cod: string }> }

/** Month end `monthsAgo` months back, Europe/Rome, a day before the end (safe from time zones). */
const inMonth = (monthsAgo: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 15, 10));
};

export async function seedRiskPortfolio(owner: Knex, tenant: string, opts: { overrideBy: string; codePrefix?: string }): Promise<SeededRisk> {
  const versioneId = randomUUID();
  await owner('rischio_versioni').insert({
    id: versioneId, cod_azienda: tenant, versione: 901, stato: 'retired', descrizione: 'Regole di prova delle viste', created_by: 'test',
    activated_by: 'test', activated_at: inMonth(30), retired_at: inMonth(0), retired_by: 'test',
  });
  await owner('anagrafe').insert([
    ...RISK_CUSTOMERS.map((c) => ({
      cod_azienda: tenant, cod_anagrafe: c.cod, tipo_soggetto: c.tipo, denominazione: c.nome, paese_residenza: c.paese, nazionalita: c.paese,
      pep: c.cod === 'ANA-RV0006', classe_rischio: c.effettiva ?? c.classe, stato: c.stato ?? 'attivo', created_by: 'test',
      ...(c.stato === 'eliminato' ? { eliminato_at: new Date(), eliminato_da: 'test' } : {}),
    })),
    ...UNSCORED.map((cod) => ({ cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${cod}`, paese_residenza: 'IT', created_by: 'test' })),
  ]);
  const now = new Date();
  await owner('rischio_correnti').insert(RISK_CUSTOMERS.map((c) => ({
    cod_azienda: tenant, cod_anagrafe: c.cod, versione_id: versioneId, punteggio: c.punteggio, classe_calcolata: c.classe, classe_effettiva: c.effettiva ?? c.classe,
    probabilita: ORDINAL[c.effettiva ?? c.classe], impatto: c.impatto, contributi: JSON.stringify([]), calcolato_at: now,
  })));
  await owner('rischio_storico').insert(RISK_CUSTOMERS.flatMap((c) => [
    ...(c.storico ?? []).map(([ago, classe]) => ({
      cod_azienda: tenant, cod_anagrafe: c.cod, versione_id: versioneId, punteggio: c.punteggio, classe, probabilita: ORDINAL[classe], impatto: c.impatto,
      origine: 'portafoglio', calcolato_at: inMonth(ago),
    })),
    { cod_azienda: tenant, cod_anagrafe: c.cod, versione_id: versioneId, punteggio: c.punteggio, classe: c.classe, probabilita: ORDINAL[c.classe], impatto: c.impatto, origine: 'manuale', calcolato_at: now },
  ]));
  const prefix = opts.codePrefix ?? String(Math.floor(Math.random() * 9e4) + 1e4);
  const base = (cod: string, anagrafe: string, extra: Record<string, unknown>) => {
    const id = randomUUID();
    return {
      id, cod_azienda: tenant, cod_valutazione: cod, cod_anagrafe: anagrafe, motivo: 'manuale', versione_id: versioneId, punteggio: 30, classe_calcolata: 'medio',
      probabilita: 2, impatto: 4, contributi: JSON.stringify([]), profilo: JSON.stringify({}), workflow_id: `risk-assessment:${tenant}:${id}`, created_by: 'test', ...extra,
    };
  };
  const pending = base(`VAL-9${prefix}1`, 'ANA-RV0004', {
    stato: 'override_pending', override_classe: 'alto', override_motivo: 'Controparti in paesi ad alto rischio non ancora censite dalle regole',
    override_by: opts.overrideBy, override_at: now, override_scadenza: '2027-06-30',
  });
  const completed = base(`VAL-9${prefix}2`, 'ANA-RV0003', { stato: 'completed', classe_calcolata: 'medio', punteggio: 24 });
  const released = base(`VAL-9${prefix}3`, 'ANA-RV0007', {
    stato: 'released', classe_effettiva: 'alto', classe_precedente: 'medio', override_classe: 'alto', override_motivo: 'Sede in Iran',
    override_by: opts.overrideBy, override_at: now, override_confirmed_by: 'un-altro-responsabile', override_confirmed_at: now, released_by: 'test', released_at: now,
  });
  await owner('rischio_valutazioni').insert([pending, completed, released]);
  return {
    versioneId,
    assessments: { pending: { id: pending.id, cod: pending.cod_valutazione }, completed: { id: completed.id, cod: completed.cod_valutazione }, released: { id: released.id, cod: released.cod_valutazione } },
  };
}
