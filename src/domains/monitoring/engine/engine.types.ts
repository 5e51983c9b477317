import type { Condizione, Lettura } from '../../../kit/conditions';
import type { Tipologia } from '../monitoring.typologies';

/**
 * The monitoring engine's contract (docs/monitoring.md): what it reads (a customer's profile and
 * movement history, rule versions, named lists, peer statistics) and what it answers (decisions
 * with every rule's outcome and what it read, alert candidates deduplicated per customer, rule and
 * window). The database, the workflows and the pages are built against these types; the engine
 * itself is pure (no I/O, no clock): the same inputs give the same answer in real time, in the
 * daily batch and in a replay.
 */

/** A calendar day, `YYYY-MM-DD`. */
export type Giorno = string;
export type Segno = 'entrata' | 'uscita';
export type TipoSoggetto = 'persona_fisica' | 'ditta_individuale' | 'societa';
/** The declared expected cash use (anagrafe.uso_contanti_atteso). */
export const USI_CONTANTI = ['nessuno', 'basso', 'medio', 'alto'] as const;
export type UsoContanti = (typeof USI_CONTANTI)[number];

/**
 * One movement of a customer's history: the movimenti row's columns the rules read, plus a KYT
 * event's (a crypto transfer is a movement with an address, an asset and a chain).
 * A history is ordered by (data_operazione, ora_operazione ?? '', id): compareMovements.
 */
export interface MovimentoMonitorato {
  /** The movement's id (movimenti.id, or a KYT event's code): unique within the customer's history. */
  id: string;
  /** The customer whose history this is (the holder, or the subject who operated: movimenti.cod_anagrafe). */
  cod_anagrafe: string;
  cod_rapporto: string;
  data_operazione: Giorno;
  /** Time of day `HH:MM` or `HH:MM:SS`, when the source has it. */
  ora_operazione?: string | null;
  /** Amount in EUR, positive. */
  importo_eur: number;
  segno: Segno;
  contanti: boolean;
  causale?: string | null;
  canale?: string | null;
  controparte_nome?: string | null;
  /** The counterparty's account (an IBAN when it has that shape: its country counts as the counterparty's). */
  controparte_conto?: string | null;
  /** ISO 3166 alpha-2. */
  controparte_paese?: string | null;
  /** Who executed it (movimenti.cod_anagrafe_esecutore): a holder, a delegate, or a third party at the counter. */
  cod_anagrafe_esecutore?: string | null;
  /** KYT: the counterparty's address (from or to, as the sign says). */
  indirizzo_controparte?: string | null;
  /** KYT: the asset (BTC, ETH, USDT...). */
  asset?: string | null;
  /** KYT: the chain (bitcoin, ethereum, tron...). */
  chain?: string | null;
  /** KYT: the transaction hash. */
  hash?: string | null;
}

/** One of the customer's relationships. */
export interface RapportoMonitorato {
  cod_rapporto: string;
  /** Free text as the records hold it (conto corrente, wallet...). */
  tipo?: string | null;
  data_apertura?: Giorno | null;
  /** The holders' cod_anagrafe: an executor outside them makes `evento.esecutore_terzo` true. */
  intestatari?: readonly string[];
}

/** What the customer record says (anagrafe and its declared profile, docs/monitoring.md part 0). */
export interface ProfiloCliente {
  cod_anagrafe: string;
  /** The customer's code in the source system. */
  codice_esterno?: string | null;
  tipo_soggetto: TipoSoggetto;
  /** ATECO code (`NN`, `NN.N`, `NN.NN`...): its section letter is `cliente.ateco_sezione`. */
  ateco?: string | null;
  professione?: string | null;
  pep?: boolean | null;
  classe_rischio?: string | null;
  paese_residenza?: string | null;
  /** Persons: gives `cliente.eta` on the evaluation day. */
  data_nascita?: Giorno | null;
  data_onboarding?: Giorno | null;
  /** Declared expected monthly volume in EUR (`dichiarato.volume_mensile_eur`). */
  volume_mensile_atteso_eur?: number | null;
  /** Declared expected cash use (`dichiarato.uso_contanti`). */
  uso_contanti_atteso?: UsoContanti | null;
  rapporti: readonly RapportoMonitorato[];
}

/**
 * The typologies (one list: monitoring.typologies.ts, which labels them); a tenant's own rule may
 * name `altro`.
 */
export type CodiceTipologia = Tipologia;

/** `evento`: evaluated on each movement as it arrives; `giornaliero`: evaluated when a day closes. */
export type AmbitoRegola = 'evento' | 'giornaliero';
/** `rapporto`: a daily rule is evaluated once per relationship that moved that day (its `livello: rapporto` aggregates read it). */
export type LivelloRegola = 'cliente' | 'rapporto';
/** What a rule that fires asks for: an alert, or (real time) to block the operation as well. */
export type EsitoRegolaTipo = 'alert' | 'blocco';
export type StatoVersione = 'bozza' | 'attiva' | 'ritirata';

/** A rule version (monitoring_regole_versioni with its rule's identity): data, never code. */
export interface VersioneRegola {
  /** The version's id. */
  id: string;
  /** The rule's stable identity across versions: alerts are deduplicated on it. */
  cod_regola: string;
  versione: number;
  /** Informational: the engine evaluates the versions it is given (the active ones, or a draft in a backtest). */
  stato?: StatoVersione;
  nome: string;
  tipologia: CodiceTipologia;
  /** UIF anomaly indicators' sub-index codes (indicatori-2023.json), e.g. `15.3`. */
  indicatori: readonly string[];
  ambito: AmbitoRegola;
  livello: LivelloRegola;
  condizione: Condizione;
  /** Added to the decision's score when the rule fires. */
  punteggio: number;
  esito: EsitoRegolaTipo;
  /** Hits of the same customer and rule whose windows of this many days overlap are one alert. */
  finestra_dedup_giorni: number;
}

/** A named list with the version the decision records (liste_riferimento). */
export interface ListaRiferimento {
  versione: string;
  voci: ReadonlySet<string>;
}
export type ListeRiferimento = Readonly<Record<string, ListaRiferimento>>;

/**
 * Medians of the peer groups (peerGroup: same tipo_soggetto and ATECO section), computed by the
 * daily batch (peerStatistics) for the windows ending on `giorno`; peer_ratio reads them.
 */
export interface StatistichePari {
  giorno: Giorno;
  /** Peer group → the peer_ratio's base aggregate key (peerBaseAggregate) → median among the group's active customers. */
  mediane: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** One rule's outcome in a decision: fired or not, and what it read (the evidence). */
export interface EsitoRegola {
  versione_id: string;
  cod_regola: string;
  versione: number;
  tipologia: CodiceTipologia;
  /** The relationship a `livello: rapporto` daily rule was evaluated for; null otherwise. */
  cod_rapporto: string | null;
  vero: boolean;
  /** The rule's score when it fired, else 0. */
  punteggio: number;
  /** The rule's outcome when it fired, else null. */
  esito: EsitoRegolaTipo | null;
  /** What the condition read, in order (fields by path, aggregates as `aggregato:<key>`). */
  letti: Lettura[];
  costo: number;
  /** A rule that could not be evaluated (budget, unknown list, malformed node) never fires; the reason is kept. */
  errore: { codice: string; messaggio: string } | null;
}

export type EsitoDecisione = 'nessuna_anomalia' | 'alert' | 'blocco';

/** A hit of a rule, deduplicated against the customer's open alerts of that rule. */
export interface CandidatoAlert {
  cod_anagrafe: string;
  cod_regola: string;
  versione_id: string;
  versione: number;
  tipologia: CodiceTipologia;
  indicatori: readonly string[];
  punteggio: number;
  esito: EsitoRegolaTipo;
  /** The day the hit was raised (an event's day, or the closed day). */
  data_rilevazione: Giorno;
  /** The movement that was evaluated (real time); null for a daily evaluation. */
  movimento_id: string | null;
  cod_rapporto: string | null;
  /** The hit's window: the dedup window ending on data_rilevazione, both days included. */
  finestra: { dal: Giorno; al: Giorno };
  /** The operations behind the hit: the movements each aggregate it read counted (and the evaluated one), at most MAX_EVIDENCE_MOVEMENTS. */
  movimenti: string[];
  letti: Lettura[];
  /** `nuovo`: raises an alert; `aggiunto`: adds to the open alert whose window it overlaps. */
  dedup: 'nuovo' | 'aggiunto';
  /** The alert it raised or joined, as it is after this hit. */
  alert_id: string;
}

/** An alert as the deduplication sees it: its span, its hits, the operations behind it. */
export interface AlertMonitoraggio {
  /** `<cod_anagrafe>:<cod_regola>:<first hit day>`: stable, so a replay raises the same ids. */
  id: string;
  cod_anagrafe: string;
  cod_regola: string;
  tipologia: CodiceTipologia;
  /** The first hit's window start and the last hit's day: a new hit whose window reaches `al` joins it. */
  dal: Giorno;
  al: Giorno;
  primo_hit: Giorno;
  ultimo_hit: Giorno;
  hit: number;
  punteggio_max: number;
  esito: EsitoRegolaTipo;
  movimenti: string[];
}

/**
 * The alerts the deduplication compares hits with, by alertStateKey(cod_anagrafe, cod_regola): the
 * latest alert of each customer and rule. The evaluation functions update it in place; the caller
 * seeds it from the stored alerts (a closed alert the tenant wants never to absorb hits is left out).
 */
export type StatoDedup = Map<string, AlertMonitoraggio>;

/** One evaluation: of one event (real time) or of one closed day (daily rules). */
export interface Decisione {
  cod_anagrafe: string;
  tipo: 'evento' | 'giornaliera';
  giorno: Giorno;
  /** The evaluated movement (tipo evento). */
  movimento_id: string | null;
  esito: EsitoDecisione;
  /** Sum of the fired rules' scores. */
  punteggio: number;
  /** Every evaluated rule's outcome, in the rule set's order (a `livello: rapporto` daily rule once per relationship). */
  regole: EsitoRegola[];
  /** Rule versions evaluated: version id → version number. */
  versioni_regole: Record<string, number>;
  /** Version of each named list the rules could read. */
  versioni_liste: Record<string, string>;
  /** The hits, deduplicated. */
  candidati: CandidatoAlert[];
}
