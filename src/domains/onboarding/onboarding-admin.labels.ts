import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import type { OnboardingAction, OnboardingStatus, WalletStatus } from '../../../workflows/onboarding/onboarding.machine';
import { DOCUMENT_TYPES } from './onboarding.schemas';

/** Italian labels for everything a reviewer sees about onboarding cases (one dictionary, so a translation can be added). */

export const STATO_LABELS: Record<OnboardingStatus, string> = {
  draft: 'Bozza',
  submitted: 'Inviata, firma in corso',
  in_review: 'In revisione',
  pending_second_approval: 'In attesa di seconda approvazione',
  approved: 'Approvata',
  rejected: 'Respinta',
  info_requested: 'Informazioni richieste',
  erased: 'Cancellata',
  expired: 'Scaduta',
};

/** Counters show states in the plural: "In revisione 4", "Approvate 12". */
export const STATO_PLURALE_LABELS: Record<OnboardingStatus, string> = {
  draft: 'Bozze',
  submitted: 'Inviate, firma in corso',
  in_review: 'In revisione',
  pending_second_approval: 'In attesa di seconda approvazione',
  approved: 'Approvate',
  rejected: 'Respinte',
  info_requested: 'Informazioni richieste',
  erased: 'Cancellate',
  expired: 'Scadute',
};

export const STATO_TONES: Record<OnboardingStatus, string> = {
  draft: 'secondary',
  submitted: 'cyan',
  in_review: 'blue',
  pending_second_approval: 'orange',
  approved: 'green',
  rejected: 'red',
  info_requested: 'yellow',
  erased: 'secondary',
  expired: 'secondary',
};

export const AZIONE_LABELS: Record<OnboardingAction, string> = {
  edit: 'Modifica',
  submit: 'Invia',
  'complete-submission': 'Completa l\'invio',
  approve: 'Approva',
  'complete-approval': 'Conferma l\'approvazione',
  reject: 'Respingi',
  'request-info': 'Richiedi informazioni',
  erase: 'Cancella',
  expire: 'Scadenza',
  'wallet-verify': 'Verifica wallet',
  'wallet-revoke': 'Revoca wallet',
};

export const RISCHIO_LABELS: Record<string, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
export const RISCHIO_TONES: Record<string, string> = { basso: 'green', medio: 'yellow', medio_alto: 'orange', alto: 'red' };

export const SOGGETTO_LABELS: Record<SubjectType, string> = {
  persona_fisica: 'Persona fisica',
  ditta_individuale: 'Ditta individuale',
  societa: 'Società',
};

export const DOCUMENTO_LABELS: Record<string, string> = { ...DOCUMENT_TYPES };

export const WALLET_STATO_LABELS: Record<WalletStatus, string> = { pending: 'Da verificare', verified: 'Verificato', revoked: 'Revocato' };
export const WALLET_STATO_TONES: Record<WalletStatus, string> = { pending: 'yellow', verified: 'green', revoked: 'red' };
export const WALLET_TIPO_LABELS: Record<string, string> = { custodial: 'Custodial (presso un prestatore)', self_hosted: 'Self-hosted' };
export const PROVA_LABELS: Record<string, string> = { firma_messaggio: 'Messaggio firmato', dichiarazione: 'Dichiarazione firmata' };

export const RUOLO_SOGGETTO_LABELS: Record<string, string> = {
  cliente: 'cliente', legale_rappresentante: 'legale rappresentante', titolare_effettivo: 'titolare effettivo', ditta: 'ditta',
};

export const CANALE_LABELS: Record<string, string> = { online: 'Online', sportello: 'Sportello' };

export const RUOLO_PAESE_LABELS: Record<string, string> = {
  sede_operativa: 'Sede operativa', clienti: 'Clienti', fornitori: 'Fornitori', origine_fondi: 'Origine dei fondi',
};

export const CONTROLLO_LABELS: Record<string, string> = {
  proprieta_diretta: 'Proprietà diretta', proprieta_indiretta: 'Proprietà indiretta', controllo: 'Controllo', rappresentanza: 'Rappresentanza',
};

export const TRAVEL_RULE_LABELS: Record<string, string> = { none: 'Non resa', signing: 'In firma', signed: 'Firmata', completed: 'Completata' };

export const CERIMONIA_LABELS: Record<string, string> = {
  started: 'Avviata', terms_accepted: 'Condizioni accettate', presented: 'Documento presentato', signed: 'Firmata', expired: 'Scaduta', locked: 'Bloccata', cancelled: 'Annullata',
};
export const CERIMONIA_SCOPO_LABELS: Record<string, string> = { dichiarazioni: 'Dichiarazioni del cliente', travel_rule: 'Dichiarazione travel rule' };

/** Field names of the applicant's data, in the order the detail page shows them. */
export const CAMPO_LABELS: Record<string, string> = {
  denominazione: 'Denominazione', forma_giuridica: 'Forma giuridica', nome: 'Nome', cognome: 'Cognome', codice_fiscale: 'Codice fiscale',
  partita_iva: 'Partita IVA', data_costituzione: 'Data di costituzione', paese_costituzione: 'Paese di costituzione', data_nascita: 'Data di nascita',
  luogo_nascita: 'Luogo di nascita', nazionalita: 'Nazionalità', paese_residenza: 'Paese di residenza', residenza: 'Residenza', sede: 'Sede',
  attivita: 'Attività', professione: 'Professione', telefono: 'Telefono', email_pec: 'PEC', percentuale: 'Percentuale',
  tipo_controllo: 'Tipo di controllo', pep: 'Persona politicamente esposta', pep_dettaglio: 'Carica pubblica', documento: 'Documento d\'identità',
  legale_rappresentante: 'Legale rappresentante', tipo: 'Tipo', numero: 'Numero', rilasciato_da: 'Rilasciato da', scadenza: 'Scadenza',
  via: 'Via', cap: 'CAP', citta: 'Città', provincia: 'Provincia', paese: 'Paese',
  titolare_wallet: 'Titolare dei wallet', fondi_leciti: 'Provenienza lecita dei fondi', aggiornamento: 'Impegno a comunicare le variazioni', luogo: 'Luogo',
};

/** Values of enumerated fields that have a readable name. */
export const VALORE_LABELS: Record<string, Record<string, string>> = {
  forma_giuridica: { srl: 'S.r.l.', spa: 'S.p.A.', sapa: 'S.a.p.a.', snc: 'S.n.c.', sas: 'S.a.s.', coop: 'Cooperativa', altro: 'Altro' },
  tipo: { carta_identita: 'Carta d\'identità', passaporto: 'Passaporto', patente: 'Patente' },
  tipo_controllo: CONTROLLO_LABELS,
};

export const SEZIONE_LABELS: Record<string, string> = {
  subject_type: 'tipo di cliente', anagrafe: 'dati del cliente', ubo: 'titolari effettivi', cdd_answers: 'questionario di adeguata verifica', countries: 'paesi',
};

export const LINK_LABELS: Record<string, string> = { resume: 'link per riprendere la pratica', info_request: 'richiesta di informazioni', reminder: 'promemoria' };

/* The titles of the audit events on the timeline are the audit area's dictionary (src/domains/audit/audit.labels.ts). */

/** An applicant's edit, by its kind. */
export const MODIFICA_LABELS: Record<string, string> = {
  section: 'Dati salvati', 'document-add': 'Documento caricato', 'document-delete': 'Documento eliminato', 'wallet-add': 'Wallet aggiunto',
  'travel-rule-sign': 'Dichiarazione travel rule inviata alla firma', 'travel-rule-complete': 'Dichiarazione travel rule completata',
  'travel-rule-reset': 'Dichiarazione travel rule annullata',
};

/** Messages for refused page actions (the API answers with the codes). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale della pratica.',
  FOUR_EYES_REQUIRED: 'L\'approvazione definitiva deve essere data da un responsabile antiriciclaggio diverso da chi ha approvato per primo (principio dei quattro occhi).',
  FORBIDDEN: 'Il tuo ruolo non consente questa azione.',
  WALLETS_PENDING: 'Prima di approvare, ogni wallet deve essere verificato o revocato.',
  PROOF_OF_CONTROL_REQUIRED: 'Questo wallet self-hosted supera 1.000 euro di volume annuo: serve la prova del controllo (messaggio firmato o dichiarazione firmata) prima della verifica.',
  NOT_FOUND: 'L\'elemento indicato non fa parte di questa pratica.',
  MISSING_FIELDS: 'Compila i campi obbligatori.',
  ONBOARDING_CONFLICT: 'La pratica è cambiata nel frattempo: ricarica la pagina e riprova.',
};
