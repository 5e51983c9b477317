import {
  ORIGINE_VERIFICA_LABELS, STATO_CHECK_LABELS, STATO_CHECK_TONES, STATO_VERIFICA_LABELS, STATO_VERIFICA_TONES, TIPO_CHECK_LABELS,
  type TipoVerifica,
} from '../verifications.vocabulary';

/**
 * The console's Italian dictionary (/admin/kyc, /admin/kyb): page words, action names, the
 * company profile's field names and the keys of the declared data. One place, so an English
 * translation is one more file.
 */

export interface KindWords {
  /** "KYC" / "KYB": the navigation entry and the breadcrumb. */
  sigla: string;
  title: string;
  subtitle: string;
  itemsLabel: string;
  empty: string;
  /** Who the verification is about, as a column heading. */
  soggetto: string;
}

export const KIND_WORDS: Record<TipoVerifica, KindWords> = {
  kyc: {
    sigla: 'KYC', title: 'Verifiche KYC', subtitle: 'Identificazione e verifica delle persone fisiche (artt. 18-19 d.lgs. 231/2007)',
    itemsLabel: 'verifiche', empty: 'Nessuna verifica KYC trovata', soggetto: 'Cliente',
  },
  kyb: {
    sigla: 'KYB', title: 'Verifiche KYB', subtitle: 'Verifica delle società e dei loro titolari effettivi (artt. 18-20 d.lgs. 231/2007)',
    itemsLabel: 'verifiche', empty: 'Nessuna verifica KYB trovata', soggetto: 'Società',
  },
};

/** The buttons of the machine's user actions, and the diagram's edge names (expire is the timer's). */
export const AZIONE_LABELS: Record<string, string> = {
  start: 'Prendi in lavorazione', approve: 'Approva', reject: 'Respingi', expire: 'Scadenza',
};

/** Success messages after a page action (post/redirect/get). */
export const AZIONE_DONE: Record<string, string> = {
  start: 'Verifica presa in lavorazione', approve: 'Verifica approvata', reject: 'Verifica respinta',
};

/** The company profile's fields (the form's labels and the profile's read-only view). */
export const PROFILO_LABELS: Record<string, string> = {
  forma_giuridica: 'Forma giuridica', numero_registro: 'Numero di iscrizione (REA)', registro: 'Registro di iscrizione', codice_ateco: 'Codice ATECO',
  paese_costituzione: 'Paese di costituzione', data_costituzione: 'Data di costituzione', 'sede_legale.indirizzo': 'Indirizzo della sede legale',
  'sede_legale.cap': 'CAP', 'sede_legale.comune': 'Comune', 'sede_legale.provincia': 'Provincia', 'sede_legale.paese': 'Paese della sede',
  capitale_sociale: 'Capitale sociale (euro)',
};

/** Keys of the declared data (onboarding or the operator), in Italian; unknown keys are shown humanised. */
export const DICHIARATI_LABELS: Record<string, string> = {
  denominazione: 'Denominazione', ragione_sociale: 'Ragione sociale', nome: 'Nome', cognome: 'Cognome', codice_fiscale: 'Codice fiscale',
  partita_iva: 'Partita IVA', data_nascita: 'Data di nascita', luogo_nascita: 'Luogo di nascita', nazionalita: 'Nazionalità',
  paese_residenza: 'Paese di residenza', paese: 'Paese', indirizzo: 'Indirizzo', via: 'Via', cap: 'CAP', citta: 'Città', comune: 'Comune',
  provincia: 'Provincia', email: 'E-mail', telefono: 'Telefono', pep: 'Persona politicamente esposta', professione: 'Professione',
  attivita: 'Attività', titolari: 'Titolari effettivi dichiarati', percentuale: 'Quota (%)', ruolo: 'Ruolo', tipo: 'Tipo',
  documento: 'Documento', numero: 'Numero', scadenza: 'Scadenza', rilasciato_da: 'Rilasciato da', forma_giuridica: 'Forma giuridica',
  scopo_rapporto: 'Scopo del rapporto', origine_fondi: 'Origine dei fondi', tipo_soggetto: 'Tipo di soggetto', paese_costituzione: 'Paese di costituzione',
  data_costituzione: 'Data di costituzione', legale_rappresentante: 'Legale rappresentante', sede_legale: 'Sede legale',
};

export const CONSOLE_LABELS = {
  stato: STATO_VERIFICA_LABELS,
  statoTone: STATO_VERIFICA_TONES,
  origine: ORIGINE_VERIFICA_LABELS,
  check: TIPO_CHECK_LABELS,
  checkStato: STATO_CHECK_LABELS,
  checkTone: STATO_CHECK_TONES,
  azione: AZIONE_LABELS,
  profilo: PROFILO_LABELS,
};

/** What a refused page action says (the machine's and the process's codes), before the problem's own text. */
export const REFUSAL_MESSAGES: Record<string, string> = {
  FORBIDDEN: 'Il tuo ruolo non consente questa azione su una verifica.',
  INVALID_TRANSITION: 'L\'azione non è possibile nello stato attuale della verifica.',
};
