import type { FUNZIONI_AGGREGATO_BASE } from '../../../kit/conditions';
import type { Condizione } from '../../../kit/conditions/condition.types';
import type { ProfiloRischio } from '../risk.types';

/**
 * What the condition editor's help panel lists: the fields of the risk profile a rule can read
 * (ProfiloRischio, by dotted path), the aggregates of the customer's movements and a few example
 * conditions to start from. Keyed by the profile's own type so a renamed field fails to compile here.
 */
type Tipo = 'sì/no' | 'numero' | 'testo' | 'elenco di testi' | 'risposte';
export interface CampoProfilo { path: string; tipo: Tipo; descrizione: string; valori?: string[] }

type Paths<T> = { [K in keyof T & string]: T[K] extends Record<string, unknown> ? (T[K] extends unknown[] ? K : `${K}.${keyof T[K] & string}`) : K }[keyof T & string];
type ProfilePath = Exclude<Paths<ProfiloRischio>, 'questionario'> | 'questionario.<domanda>';

const campo = (path: ProfilePath, tipo: Tipo, descrizione: string, valori?: string[]): CampoProfilo => ({ path, tipo, descrizione, ...(valori ? { valori } : {}) });

export const CAMPI_PROFILO: readonly { gruppo: string; campi: CampoProfilo[] }[] = [
  {
    gruppo: 'Cliente',
    campi: [
      campo('cliente.tipo_soggetto', 'testo', 'Tipo di soggetto', ['persona_fisica', 'ditta_individuale', 'societa']),
      campo('cliente.pep', 'sì/no', 'Il cliente è una persona politicamente esposta'),
      campo('cliente.pep_collegati', 'sì/no', 'Una PEP tra cliente, legali rappresentanti e titolari effettivi'),
      campo('cliente.attivita', 'testo', 'Attività dichiarata'),
      campo('cliente.settore', 'testo', 'Settore di attività (codice del questionario)'),
      campo('cliente.eta_anni', 'numero', 'Età in anni (persone fisiche)'),
      campo('cliente.anzianita_giorni', 'numero', 'Giorni dall\'apertura della posizione in anagrafe'),
      campo('titolari.numero', 'numero', 'Numero dei titolari effettivi'),
      campo('titolari.pep', 'sì/no', 'Una PEP tra i titolari effettivi'),
      campo('screening.corrispondenze_aperte', 'numero', 'Corrispondenze di screening ancora da valutare'),
      campo('screening.corrispondenze_confermate', 'numero', 'Corrispondenze di screening confermate'),
    ],
  },
  {
    gruppo: 'Area geografica',
    campi: [
      campo('geografia.nazionalita', 'testo', 'Nazionalità (codice ISO di due lettere)'),
      campo('geografia.paese_residenza', 'testo', 'Paese di residenza o sede'),
      campo('geografia.paese_fiscale', 'testo', 'Paese di residenza fiscale'),
      campo('geografia.paesi_operativita', 'elenco di testi', 'Paesi in cui il cliente opera'),
      campo('geografia.paesi_collegati', 'elenco di testi', 'Paesi di titolari e legami (nazionalità, residenza)'),
      campo('geografia.paesi', 'elenco di testi', 'Tutti i paesi sopra, senza ripetizioni'),
      campo('geografia.paesi_controparti', 'elenco di testi', 'Paesi delle controparti dei movimenti degli ultimi 365 giorni'),
    ],
  },
  {
    gruppo: 'Prodotti, servizi e operazioni',
    campi: [
      campo('prodotto.tipi_rapporto', 'elenco di testi', 'Tipi dei rapporti in essere'),
      campo('prodotto.rapporti_attivi', 'numero', 'Numero dei rapporti attivi'),
      campo('prodotto.wallet_self_hosted', 'numero', 'Wallet self-hosted dichiarati'),
      campo('prodotto.wallet_sanzionati', 'numero', 'Wallet presenti in liste di sanzioni'),
      campo('prodotto.crypto', 'sì/no', 'Operatività in cripto-attività'),
      campo('dichiarato.volume_annuo_eur', 'numero', 'Volume annuo dichiarato in euro'),
      campo('questionario.<domanda>', 'risposte', 'Risposta del questionario di adeguata verifica (es. questionario.origine_fondi)'),
    ],
  },
  {
    gruppo: 'Canali di distribuzione',
    campi: [
      campo('canale.canale', 'testo', 'Canale di avvio del rapporto', ['online', 'sportello']),
      campo('canale.intermediario', 'sì/no', 'Rapporto avviato tramite un intermediario'),
    ],
  },
];

/** The aggregate functions a risk rule may use (what the SQL loader computes) with their Italian meaning (the preview's sentence uses the same words). */
export const FUNZIONI_AGGREGATO_HELP: Record<(typeof FUNZIONI_AGGREGATO_BASE)[number], string> = {
  count: 'numero dei movimenti nella finestra',
  sum: 'importo totale in euro nella finestra',
  cash_share: 'quota dei contanti sul totale (da 0 a 1)',
  distinct_counterparties: 'controparti diverse',
  distinct_countries: 'paesi di controparte diversi',
  ratio_history: 'totale della finestra rispetto alla media dello storico del cliente',
  ratio_declared: 'totale annualizzato rispetto al volume annuo dichiarato',
};

/** Optional filters of an aggregate. */
export const FILTRI_AGGREGATO_HELP: readonly { chiave: string; descrizione: string }[] = [
  { chiave: 'finestra_giorni', descrizione: 'giorni della finestra che termina alla data del calcolo (obbligatoria)' },
  { chiave: 'segno', descrizione: 'solo entrate ("entrata") o solo uscite ("uscita")' },
  { chiave: 'contanti', descrizione: 'solo movimenti in contanti (true) o senza contanti (false)' },
  { chiave: 'paesi_controparte', descrizione: 'solo controparti di questi paesi: elenco ISO o { "lista": … }' },
  { chiave: 'storico_giorni', descrizione: 'per ratio_history: quanti giorni di storico (365 se assente)' },
];

export const OPERATORI_HELP: readonly { op: string; descrizione: string }[] = [
  { op: 'eq / ne', descrizione: 'uguale / diverso' },
  { op: 'gt / gte / lt / lte', descrizione: 'maggiore / almeno / minore / al massimo' },
  { op: 'between', descrizione: 'tra [minimo, massimo]' },
  { op: 'in / not_in', descrizione: 'tra / non tra i valori di un elenco o di una lista' },
  { op: 'intersects', descrizione: 'un elenco del profilo ha almeno un elemento in comune' },
  { op: 'exists / not_exists', descrizione: 'il dato è presente / assente (senza valore)' },
];

export interface EsempioCondizione { titolo: string; condizione: Condizione }

export const ESEMPI_CONDIZIONE: readonly EsempioCondizione[] = [
  { titolo: 'Persona politicamente esposta', condizione: { almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { campo: 'titolari.pep', op: 'eq', valore: true }] } },
  { titolo: 'Paese ad alto rischio', condizione: { campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'paesi_alto_rischio' } } },
  {
    titolo: 'Molti contanti negli ultimi 90 giorni',
    condizione: { tutti: [{ aggregato: { fn: 'cash_share', finestra_giorni: 90 }, op: 'gte', valore: 0.3 }, { aggregato: { fn: 'sum', finestra_giorni: 90 }, op: 'gt', valore: 10000 }] },
  },
  { titolo: 'Volumi oltre il doppio del dichiarato', condizione: { aggregato: { fn: 'ratio_declared', finestra_giorni: 365 }, op: 'gt', valore: 2 } },
];

/** Short Italian subjects of the profile fields, for the sentence of a condition ("il paese di residenza è «IR»"). */
export const ETICHETTE_CAMPI: Readonly<Record<string, string>> = {
  'cliente.tipo_soggetto': 'il tipo di soggetto',
  'cliente.pep': 'persona politicamente esposta',
  'cliente.pep_collegati': 'PEP tra cliente, rappresentanti e titolari',
  'cliente.attivita': "l'attività",
  'cliente.settore': 'il settore di attività',
  'cliente.eta_anni': "l'età in anni",
  'cliente.anzianita_giorni': 'i giorni di anzianità in anagrafe',
  'titolari.numero': 'il numero dei titolari effettivi',
  'titolari.pep': 'PEP tra i titolari effettivi',
  'screening.corrispondenze_aperte': 'il numero di corrispondenze di screening da valutare',
  'screening.corrispondenze_confermate': 'il numero di corrispondenze di screening confermate',
  'geografia.nazionalita': 'la nazionalità',
  'geografia.paese_residenza': 'il paese di residenza',
  'geografia.paese_fiscale': 'il paese di residenza fiscale',
  'geografia.paesi_operativita': "l'elenco dei paesi di operatività",
  'geografia.paesi_collegati': "l'elenco dei paesi di titolari e legami",
  'geografia.paesi': "l'elenco dei paesi del cliente",
  'geografia.paesi_controparti': "l'elenco dei paesi delle controparti",
  'prodotto.tipi_rapporto': "l'elenco dei tipi di rapporto",
  'prodotto.rapporti_attivi': 'il numero dei rapporti attivi',
  'prodotto.wallet_self_hosted': 'il numero di wallet self-hosted',
  'prodotto.wallet_sanzionati': 'il numero di wallet sanzionati',
  'prodotto.crypto': 'operatività in cripto-attività',
  'dichiarato.volume_annuo_eur': 'il volume annuo dichiarato',
  'canale.canale': 'il canale di avvio',
  'canale.intermediario': 'rapporto tramite intermediario',
};
