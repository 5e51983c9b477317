import type { CddLevelReason, CddLivello } from '../../../workflows/cdd/cdd-task.contract';
import type { HighRiskLists } from './high-risk-countries';

export type ClasseRischio = 'basso' | 'medio' | 'medio_alto' | 'alto';

/** Where a country touches the customer. */
export type CountryRole = 'residenza' | 'nazionalita' | 'paese_fiscale' | 'titolare_effettivo' | 'collegato' | 'operativita';

export interface CddLevelInput {
  classeRischio: ClasseRischio | null;
  /** The customer is a politically exposed person. */
  pep: boolean;
  /** Linked persons (beneficial owners, representatives) who are PEPs, by code. */
  pepCollegati: string[];
  /** Every country the customer is linked to, and how. */
  paesi: { paese: string; ruolo: CountryRole }[];
  /** The last questionnaire declares relevant cash operations. */
  contanti?: boolean;
  /** Screening matches of the customer still open or confirmed. */
  matchScreening?: number;
}

export interface CddLevel { livello: CddLivello; motivazioni: CddLevelReason[] }

const ROLE_TEXT: Record<CountryRole, string> = {
  residenza: 'paese di residenza o sede', nazionalita: 'nazionalità', paese_fiscale: 'residenza fiscale',
  titolare_effettivo: 'paese di un titolare effettivo', collegato: 'paese di un soggetto collegato', operativita: 'paese di operatività dichiarato',
};

const CLASS_TEXT: Record<ClasseRischio, string> = { basso: 'basso', medio: 'medio', medio_alto: 'medio-alto', alto: 'alto' };

/**
 * The due-diligence level of a task, with its reasons (d.lgs. 231/2007):
 * - enhanced always for PEPs, customer or beneficial owner (art. 24 c.5 lett. c), and for links
 *   with high-risk third countries (art. 24 c.5 lett. a: the EU list of Reg. (UE) 2016/1675;
 *   the FATF black and grey lists, authoritative sources of Allegato 2 punto 3 lett. a), and
 *   whenever the risk class is high (art. 24 c.1);
 * - simplified only for a low class with no aggravating factor at all (art. 23: declared cash,
 *   screening matches, an unknown class are aggravating);
 * - ordinary otherwise (art. 17-18).
 * Every reason found is kept, the ones that decided the level first.
 */
export function cddLevel(input: CddLevelInput, lists: HighRiskLists): CddLevel {
  const enhanced: CddLevelReason[] = [];
  const aggravating: CddLevelReason[] = [];

  if (input.pep) enhanced.push({ codice: 'pep', testo: 'Il cliente è una persona politicamente esposta (art. 24 c.5 lett. c d.lgs. 231/2007)' });
  for (const cod of [...new Set(input.pepCollegati)].sort()) {
    enhanced.push({ codice: 'pep_collegato', testo: `Il soggetto collegato ${cod} (titolare effettivo o esecutore) è una persona politicamente esposta (art. 24 c.5 lett. c)` });
  }

  const seen = new Set<string>();
  for (const { paese, ruolo } of input.paesi) {
    const code = paese.trim().toUpperCase();
    const key = `${code}:${ruolo}`;
    if (!code || seen.has(key)) continue;
    seen.add(key);
    const where = `${ROLE_TEXT[ruolo]}: ${code}`;
    if (lists.eu.has(code)) enhanced.push({ codice: 'paese_alto_rischio_ue', testo: `Paese terzo ad alto rischio dell'elenco UE (Reg. delegato (UE) 2016/1675) — ${where} (art. 24 c.5 lett. a)` });
    if (lists.fatfBlack.has(code)) enhanced.push({ codice: 'paese_gafi_black', testo: `Paese soggetto a «call for action» del GAFI — ${where}` });
    else if (lists.fatfGrey.has(code)) enhanced.push({ codice: 'paese_gafi_grey', testo: `Paese sotto monitoraggio rafforzato del GAFI (grey list) — ${where}` });
  }

  if (input.classeRischio === 'alto') enhanced.push({ codice: 'classe_alta', testo: 'Classe di rischio alta (art. 24 c.1)' });
  if (input.classeRischio === null) aggravating.push({ codice: 'classe_non_determinata', testo: 'Classe di rischio non ancora determinata' });
  if (input.contanti) aggravating.push({ codice: 'contanti', testo: 'Operatività rilevante in contanti dichiarata nel questionario' });
  if ((input.matchScreening ?? 0) > 0) aggravating.push({ codice: 'match_screening', testo: `Corrispondenze di screening aperte o confermate: ${input.matchScreening}` });

  if (enhanced.length) return { livello: 'rafforzata', motivazioni: [...enhanced, ...aggravating] };
  if (input.classeRischio === 'basso' && !aggravating.length) {
    return { livello: 'semplificata', motivazioni: [{ codice: 'classe_bassa', testo: 'Classe di rischio bassa senza fattori di rischio aggravanti (art. 23)' }] };
  }
  const cls = input.classeRischio
    ? [{ codice: `classe_${input.classeRischio}`, testo: `Classe di rischio ${CLASS_TEXT[input.classeRischio]}${input.classeRischio === 'basso' ? ' con fattori aggravanti: la semplificata non si applica (art. 23)' : ''}` }]
    : [];
  return { livello: 'ordinaria', motivazioni: [...cls, ...aggravating] };
}
