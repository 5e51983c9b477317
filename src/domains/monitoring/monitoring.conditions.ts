import {
  describeCondition, FUNZIONI_AGGREGATO, validateCondition, type Condizione, type ConditionIssue,
} from '../../kit/conditions';
import { RISK_LIST_LABELS } from '../risk';

/**
 * The condition language as monitoring rules use it (docs/monitoring.md, "The condition language
 * for monitoring"): the fields the evaluator exposes about the event, the customer, what they
 * declared and the relationship, the aggregates of the condition kit, and the named lists.
 * Every rule's condition is checked by validateMonitoringCondition, the one call site of the
 * kit's validation for monitoring: when the language grows, this is where it is told so.
 */
export type TipoCampo = 'numero' | 'testo' | 'sì/no';
export interface CampoMonitoraggio { path: string; tipo: TipoCampo; descrizione: string; valori?: readonly string[] }

const campo = (path: string, tipo: TipoCampo, descrizione: string, valori?: readonly string[]): CampoMonitoraggio =>
  ({ path, tipo, descrizione, ...(valori ? { valori } : {}) });

export const CAMPI_MONITORAGGIO: readonly { gruppo: string; campi: CampoMonitoraggio[] }[] = [
  {
    gruppo: 'Operazione valutata',
    campi: [
      campo('evento.importo_eur', 'numero', 'Importo in euro'),
      campo('evento.segno', 'testo', 'Entrata o uscita', ['entrata', 'uscita']),
      campo('evento.contanti', 'sì/no', 'Operazione in contanti'),
      campo('evento.causale', 'testo', 'Causale'),
      campo('evento.canale', 'testo', 'Canale'),
      campo('evento.controparte_paese', 'testo', 'Paese della controparte (codice ISO)'),
      campo('evento.controparte_iban_paese', 'testo', 'Paese dell\'IBAN della controparte'),
      campo('evento.ora', 'numero', 'Ora dell\'operazione (0-23), quando nota'),
      campo('evento.giorno_settimana', 'numero', 'Giorno della settimana (1 lunedì … 7 domenica)'),
      campo('evento.importo_tondo', 'sì/no', 'Importo tondo (multiplo di 500 o 1.000 €)'),
      campo('evento.esecutore_terzo', 'sì/no', 'Eseguita da chi non è intestatario del rapporto'),
      campo('evento.indirizzo_controparte', 'testo', 'Indirizzo crypto della controparte'),
      campo('evento.asset', 'testo', 'Cripto-attività'),
      campo('evento.chain', 'testo', 'Blockchain'),
    ],
  },
  {
    gruppo: 'Cliente',
    campi: [
      campo('cliente.tipo_soggetto', 'testo', 'Tipo di soggetto', ['persona_fisica', 'ditta_individuale', 'societa']),
      campo('cliente.ateco', 'testo', 'Codice ATECO'),
      campo('cliente.ateco_sezione', 'testo', 'Sezione ATECO (lettera)'),
      campo('cliente.professione', 'testo', 'Professione'),
      campo('cliente.pep', 'sì/no', 'Persona politicamente esposta'),
      campo('cliente.classe_rischio', 'testo', 'Classe di rischio', ['basso', 'medio', 'medio_alto', 'alto']),
      campo('cliente.paese_residenza', 'testo', 'Paese di residenza o sede'),
      campo('cliente.eta', 'numero', 'Età in anni'),
      campo('cliente.mesi_da_onboarding', 'numero', 'Mesi dall\'inizio del rapporto con il cliente'),
    ],
  },
  {
    gruppo: 'Profilo dichiarato',
    campi: [
      campo('dichiarato.volume_mensile_eur', 'numero', 'Volume mensile atteso in euro'),
      campo('dichiarato.uso_contanti', 'testo', 'Uso di contanti atteso', ['nessuno', 'basso', 'medio', 'alto']),
    ],
  },
  {
    gruppo: 'Rapporto',
    campi: [
      campo('rapporto.tipo', 'testo', 'Tipo di rapporto'),
      campo('rapporto.mesi_da_apertura', 'numero', 'Mesi dall\'apertura del rapporto'),
    ],
  },
];

export const CAMPI_PER_PATH: ReadonlyMap<string, CampoMonitoraggio> = new Map(CAMPI_MONITORAGGIO.flatMap((g) => g.campi.map((c) => [c.path, c])));
const PATHS: ReadonlySet<string> = new Set(CAMPI_PER_PATH.keys());

/** Short Italian subjects of the fields, for the condition's sentence ("l'importo in euro supera 10.000"). */
export const ETICHETTE_CAMPI: Readonly<Record<string, string>> = {
  'evento.importo_eur': "l'importo dell'operazione in euro",
  'evento.segno': 'il segno dell\'operazione',
  'evento.contanti': 'operazione in contanti',
  'evento.causale': 'la causale',
  'evento.canale': 'il canale',
  'evento.controparte_paese': 'il paese della controparte',
  'evento.controparte_iban_paese': "il paese dell'IBAN della controparte",
  'evento.ora': "l'ora dell'operazione",
  'evento.giorno_settimana': 'il giorno della settimana',
  'evento.importo_tondo': 'importo tondo',
  'evento.esecutore_terzo': 'eseguita da un non intestatario',
  'evento.indirizzo_controparte': "l'indirizzo crypto della controparte",
  'evento.asset': 'la cripto-attività',
  'evento.chain': 'la blockchain',
  'cliente.tipo_soggetto': 'il tipo di soggetto',
  'cliente.ateco': 'il codice ATECO',
  'cliente.ateco_sezione': 'la sezione ATECO',
  'cliente.professione': 'la professione',
  'cliente.pep': 'persona politicamente esposta',
  'cliente.classe_rischio': 'la classe di rischio',
  'cliente.paese_residenza': 'il paese di residenza',
  'cliente.eta': "l'età del cliente",
  'cliente.mesi_da_onboarding': "i mesi dall'inizio del rapporto con il cliente",
  'dichiarato.volume_mensile_eur': 'il volume mensile dichiarato',
  'dichiarato.uso_contanti': "l'uso di contanti dichiarato",
  'rapporto.tipo': 'il tipo di rapporto',
  'rapporto.mesi_da_apertura': "i mesi dall'apertura del rapporto",
};

/**
 * The aggregate functions the builder offers: the kit's own list (so a function the language gains
 * appears here), with its Italian meaning where one is written.
 */
const FUNZIONI_DESCRIZIONI: Readonly<Record<string, string>> = {
  count: 'Numero di operazioni',
  sum: 'Importo totale (€)',
  avg: 'Importo medio (€)',
  max: 'Importo massimo (€)',
  cash_share: 'Quota di contanti (da 0 a 1)',
  distinct_counterparties: 'Controparti diverse',
  distinct_new_counterparties: 'Controparti nuove',
  distinct_countries: 'Paesi di controparte diversi',
  days_since_previous: 'Giorni dall\'operazione precedente',
  ratio_history: 'Rapporto con lo storico del cliente',
  ratio_declared: 'Rapporto con il profilo dichiarato',
  passthrough_share: 'Quota di entrate uscite di nuovo (transito)',
  peer_ratio: 'Rapporto con clienti simili',
  ratio_last_year: 'Rapporto con gli stessi giorni di un anno prima',
};
export const FUNZIONI_MONITORAGGIO: readonly { fn: string; descrizione: string }[] =
  FUNZIONI_AGGREGATO.map((fn) => ({ fn, descrizione: FUNZIONI_DESCRIZIONI[fn] ?? fn }));

/** The named lists a rule may name: the reference lists of countries and the sanctioned crypto addresses. */
export const LISTE_MONITORAGGIO: Readonly<Record<string, string>> = {
  ...RISK_LIST_LABELS,
  indirizzi_crypto_sanzionati: 'Indirizzi crypto sanzionati (liste di screening)',
};

/**
 * Checks a monitoring rule's condition: the kit's validation over monitoring's field catalogue.
 * Each problem carries the path of the bad node from the condition's root (`tutti.1.op`).
 */
export function validateMonitoringCondition(condizione: unknown): ConditionIssue[] {
  return validateCondition(condizione, { campi: PATHS });
}

/** The condition in Italian words (the rule pages' preview); a condition that is not valid is not described. */
export function describeMonitoringCondition(condizione: Condizione): string {
  return describeCondition(condizione, { etichette: ETICHETTE_CAMPI, liste: LISTE_MONITORAGGIO });
}
