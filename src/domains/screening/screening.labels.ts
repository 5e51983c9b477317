import type { MatchAction, MatchStatus } from '../../../workflows/screening/screening.machine';

/** Italian labels for screening; the API keeps the machine's identifiers. */
export const MATCH_STATO_LABELS: Record<MatchStatus, string> = {
  open: 'Aperta', assigned: 'Assegnata', true_match: 'Corrispondenza confermata', false_positive: 'Falso positivo',
};
export const MATCH_STATO_TONES: Record<MatchStatus, string> = {
  open: 'blue', assigned: 'yellow', true_match: 'red', false_positive: 'green',
};
export const MATCH_AZIONE_LABELS: Record<MatchAction, string> = {
  assegna: 'Assegna', risolvi: 'Risolvi', conferma: 'Conferma risoluzione',
};
export const ESITO_LABELS: Record<string, string> = { true_match: 'Corrispondenza confermata', false_positive: 'Falso positivo' };
export const IMPORT_STATUS_LABELS: Record<string, string> = { running: 'In corso', completed: 'Completata', failed: 'Non riuscita' };
export const IMPORT_STATUS_TONES: Record<string, string> = { running: 'blue', completed: 'green', failed: 'red' };
export const RESCREEN_STATUS_LABELS: Record<string, string> = { pending: 'In attesa', running: 'In corso', completed: 'Completata', failed: 'Non riuscita' };
export const RESCREEN_STATUS_TONES: Record<string, string> = { pending: 'secondary', running: 'blue', completed: 'green', failed: 'red' };
export const LIST_STATUS_LABELS: Record<string, string> = { pending: 'In attesa', running: 'In corso', done: 'Importata', unchanged: 'Invariata' };
export const TRIGGER_LABELS: Record<string, string> = { manual: 'Manuale', schedule: 'Pianificata' };
/** The lists of screening.sources.ts by their human name. */
export const LISTA_LABELS: Record<string, string> = {
  un_sc_sanctions: 'ONU, Consiglio di sicurezza',
  eu_fsf: 'UE, sanzioni finanziarie (FSF)',
  gb_hmt_sanctions: 'Regno Unito, HM Treasury',
  us_ofac_crypto: 'OFAC (USA), indirizzi crypto',
  opensanctions: 'OpenSanctions',
};
const OFAC_SDN = /^us_ofac_sdn_(\d{4})_(\d{2})$/;

const month = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/**
 * A list's human name; the OFAC SDN list is imported per monthly publication and named by it
 * (us_ofac_sdn_2021_07 → "OFAC SDN (USA), luglio 2021"). An id this does not know is shown as
 * it is, so a new list is never hidden.
 */
export function listaLabel(id: string): string {
  const m = OFAC_SDN.exec(id);
  return m ? `OFAC SDN (USA), ${month.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)))}` : LISTA_LABELS[id] ?? id;
}

/** Counters show states in the plural: "Aperte 113", not "Aperta 113". */
export const MATCH_STATO_PLURALE_LABELS: Record<MatchStatus, string> = {
  open: 'Aperte', assigned: 'Assegnate', true_match: 'Corrispondenze confermate', false_positive: 'Falsi positivi',
};
/** The kinds of list entries (the lists' own schema names, FollowTheMoney style). */
export const VOCE_TIPO_LABELS: Record<string, string> = {
  Person: 'Persona fisica', Organization: 'Organizzazione', Company: 'Società', LegalEntity: 'Persona giuridica',
  Vessel: 'Nave', Airplane: 'Aeromobile', CryptoWallet: 'Wallet crypto', Address: 'Indirizzo', Thing: 'Altro',
};
export const TIPO_SOGGETTO_LABELS: Record<string, string> = { person: 'Persona fisica', company: 'Persona giuridica' };

/** Messages for a refused action on a page (the API answers with the code). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale della corrispondenza.',
  FORBIDDEN: 'Il tuo ruolo non consente questa azione.',
  FOUR_EYES_REQUIRED: 'La risoluzione deve essere confermata da un utente diverso da chi l\'ha richiesta.',
  ESITO_DIFFERENTE: 'L\'esito indicato è diverso da quello richiesto: la conferma deve riportare lo stesso esito.',
};
