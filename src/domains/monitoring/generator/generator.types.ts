import type { Giorno, MovimentoMonitorato, ProfiloCliente } from '../engine/engine.types';
import type { Tipologia } from '../monitoring.typologies';

/** The typologies the generator plants: every one but `altro` (a tenant's own rules). */
export type TipologiaPiantata = Exclude<Tipologia, 'altro'>;

/** A crypto address with its asset (as the sanctions data lists it: `XBT`, `ETH`, `USDT`...). */
export interface IndirizzoCripto { asset: string; indirizzo: string }

export interface OpzioniAnno {
  /** Customers (persons, sole traders and companies in realistic proportions). */
  clienti: number;
  seed: string | number;
  /** First day of the labelled year (patterns are planted from it on). Default 2025-01-01. */
  inizio?: Giorno;
  /** Months of the labelled period. Default 12. */
  mesi?: number;
  /** Months of ordinary history before `inizio` (what rules that read trailing history need). Default 6. */
  mesi_storico?: number;
  /** Share of customers carrying each planted typology (at least one each). Default 0.01. */
  quota_per_tipologia?: number;
  /** Countries of the high-risk list the planted patterns use (ISO alpha-2): the reference data's. */
  paesi_alto_rischio: readonly string[];
  /** Countries ordinary foreign counterparties must avoid (every high-risk list): defaults to paesi_alto_rischio. */
  paesi_da_evitare?: readonly string[];
  /** Sanctioned addresses (the screening area's crypto list) the planted transfers use. */
  indirizzi_sanzionati: readonly IndirizzoCripto[];
}

/** What a customer record needs beyond the engine's profile (names and tax data for the imports). */
export interface AnagraficaGenerata {
  nome: string | null;
  cognome: string | null;
  denominazione: string;
  sesso: 'M' | 'F' | null;
  /** The person's or the legal representative's birth place (a cadastral code: the codice fiscale's). */
  comune_nascita: string;
}

/** One planted pattern: whose, which typology, and the days of its first and last movement. */
export interface Etichetta {
  cod_anagrafe: string;
  tipologia: TipologiaPiantata;
  dal: Giorno;
  al: Giorno;
  /** The planted movements' ids (they exist in the customer's history). */
  movimenti: string[];
}

/** The kind of ordinary behaviour a customer has (for the look-alikes and the docs). */
export type Comportamento =
  | 'dipendente' | 'pensionato' | 'studente' | 'locatore' | 'professionista' | 'negozio_contanti' | 'stagionale'
  | 'datore_lavoro' | 'commercio_estero' | 'acquisto_casa' | 'acquisto_auto' | 'investitore_cripto' | 'saltuario' | 'nuovo_cliente';

export interface ClienteGenerato {
  profilo: ProfiloCliente;
  anagrafica: AnagraficaGenerata;
  comportamento: Comportamento;
  /** In history order (compareMovements). */
  movimenti: MovimentoMonitorato[];
  /** Empty for a clean customer. */
  etichette: Etichetta[];
}

export interface AnnoGenerato {
  /** The labelled period (the replay evaluates it; earlier movements are history). */
  dal: Giorno;
  al: Giorno;
  /** The first day of the history (dal minus mesi_storico). */
  storico_dal: Giorno;
  clienti: ClienteGenerato[];
  etichette: Etichetta[];
  /** The tenant's own list of crypto addresses (`indirizzi_crypto_tenant`) the planted transfers use. */
  indirizzi_tenant: string[];
}
