/**
 * Italian words of the customer records (anagrafe) pages: one dictionary per enum, so an English
 * translation can be added in one place. The API keeps the identifiers.
 */

export const TIPO_SOGGETTO_LABELS: Record<string, string> = {
  persona_fisica: 'Persona fisica',
  ditta_individuale: 'Ditta individuale',
  societa: 'Società',
};

export const STATO_LABELS: Record<string, string> = {
  attivo: 'Attivo',
  sospeso: 'Sospeso',
  cessato: 'Cessato',
  eliminato: 'Eliminato',
};
export const STATO_TONES: Record<string, string> = { attivo: 'green', sospeso: 'yellow', cessato: 'secondary', eliminato: 'red' };

export const CLASSE_RISCHIO_LABELS: Record<string, string> = {
  basso: 'Basso',
  medio: 'Medio',
  medio_alto: 'Medio-alto',
  alto: 'Alto',
};
export const CLASSE_RISCHIO_TONES: Record<string, string> = { basso: 'green', medio: 'azure', medio_alto: 'yellow', alto: 'red' };

/** Why the subject is in the records: the customer, or a person linked to one. */
export const RUOLO_ANAGRAFE_LABELS: Record<string, string> = {
  cliente: 'Cliente',
  legale_rappresentante: 'Legale rappresentante',
  titolare_effettivo: 'Titolare effettivo',
  esecutore: 'Esecutore',
  delegato: 'Delegato',
  collegato: 'Soggetto collegato',
};

export const PEP_LABELS: Record<string, string> = { true: 'Sì', false: 'No' };

export const RAPPORTO_STATO_LABELS: Record<string, string> = { attivo: 'Attivo', sospeso: 'Sospeso', chiuso: 'Chiuso' };
export const RAPPORTO_STATO_TONES: Record<string, string> = { attivo: 'green', sospeso: 'yellow', chiuso: 'secondary' };

/** The subject's role in a relationship (rapporti_soggetti.ruolo). */
export const RUOLO_RAPPORTO_LABELS: Record<string, string> = {
  intestatario: 'Intestatario',
  cointestatario: 'Cointestatario',
  esecutore: 'Esecutore',
  delegato: 'Delegato',
  titolare_effettivo: 'Titolare effettivo',
};

/** Kinds of relationship as onboarding and imports write them; an unknown kind shows as written. */
export const RAPPORTO_TIPO_LABELS: Record<string, string> = {
  rapporto_continuativo: 'Rapporto continuativo',
  operazione_occasionale: 'Operazione occasionale',
  conto_corrente: 'Conto corrente',
  conto_deposito: 'Conto deposito',
  conto_pagamento: 'Conto di pagamento',
  carta: 'Carta',
  finanziamento: 'Finanziamento',
  investimento: 'Investimento',
  custodia_cripto: 'Custodia di cripto-attività',
  cambio_cripto: 'Cambio di cripto-attività',
  altro: 'Altro',
};

export const LEGAME_TIPO_LABELS: Record<string, string> = {
  titolare_effettivo: 'Titolare effettivo',
  legale_rappresentante: 'Legale rappresentante',
  esecutore: 'Esecutore',
  delegato: 'Delegato',
  socio: 'Socio',
  amministratore: 'Amministratore',
  familiare: 'Familiare',
  stretto_collaboratore: 'Stretto collaboratore',
  controllata: 'Controllata',
  altro: 'Altro',
};

export const TIPO_CONTROLLO_LABELS: Record<string, string> = {
  proprieta_diretta: 'Proprietà diretta',
  proprieta_indiretta: 'Proprietà indiretta',
  controllo: 'Controllo',
  rappresentanza: 'Rappresentanza',
};

export const FONTE_LABELS: Record<string, string> = { onboarding: 'Onboarding', manuale: 'Inserimento manuale', import: 'Importazione', registro: 'Registro imprese' };

export const DOCUMENTO_TIPO_LABELS: Record<string, string> = {
  carta_identita: "Carta d'identità",
  passaporto: 'Passaporto',
  patente: 'Patente di guida',
  permesso_soggiorno: 'Permesso di soggiorno',
  visura_camerale: 'Visura camerale',
  atto_costitutivo: 'Atto costitutivo',
  statuto: 'Statuto',
  altro: 'Altro documento',
};
export const DOCUMENTO_STATO_LABELS: Record<string, string> = { valido: 'Valido', scaduto: 'Scaduto', sostituito: 'Sostituito' };
export const DOCUMENTO_STATO_TONES: Record<string, string> = { valido: 'green', scaduto: 'red', sostituito: 'secondary' };

/** What a version of the record did (anagrafe_versioni.operazione). */
export const OPERAZIONE_LABELS: Record<string, string> = { create: 'Creazione', update: 'Modifica', delete: 'Eliminazione' };
export const OPERAZIONE_TONES: Record<string, string> = { create: 'green', update: 'blue', delete: 'red' };

/** Names of the record's fields, for the version history ("which fields, old → new"). */
export const CAMPO_LABELS: Record<string, string> = {
  tipo_soggetto: 'Tipo di soggetto',
  denominazione: 'Denominazione',
  nome: 'Nome',
  cognome: 'Cognome',
  codice_fiscale: 'Codice fiscale',
  partita_iva: 'Partita IVA',
  codice_fiscale_estero: 'Identificativo fiscale estero',
  paese_fiscale: 'Paese di residenza fiscale',
  data_nascita: 'Data di nascita',
  luogo_nascita: 'Luogo di nascita',
  nazionalita: 'Nazionalità',
  paese_residenza: 'Paese di residenza',
  indirizzo: 'Indirizzo',
  email: 'Email',
  telefono: 'Telefono',
  attivita: 'Attività',
  pep: 'Persona politicamente esposta',
  classe_rischio: 'Classe di rischio',
  punteggio_rischio: 'Punteggio di rischio',
  stato: 'Stato',
  ruolo: 'Ruolo',
  motivo_eliminazione: 'Motivo dell\'eliminazione',
  eliminato_at: 'Eliminato il',
  eliminato_da: 'Eliminato da',
};

/** Fields whose values are enums: the history shows their labels, not the identifiers. */
export const CAMPO_VALUE_LABELS: Record<string, Record<string, string>> = {
  tipo_soggetto: TIPO_SOGGETTO_LABELS,
  stato: STATO_LABELS,
  classe_rischio: CLASSE_RISCHIO_LABELS,
  pep: PEP_LABELS,
};

/** Movements (movimenti), shown on the customer file. */
export const SEGNO_LABELS: Record<string, string> = { entrata: 'Entrata', uscita: 'Uscita' };
export const SEGNO_TONES: Record<string, string> = { entrata: 'green', uscita: 'orange' };

/** The dictionaries the anagrafe templates read (`labels.tipo[...]`, `x | etichetta(labels.ruolo)`). */
export const PAGE_LABELS = {
  tipo: TIPO_SOGGETTO_LABELS,
  stato: STATO_LABELS,
  statoTone: STATO_TONES,
  rischio: CLASSE_RISCHIO_LABELS,
  rischioTone: CLASSE_RISCHIO_TONES,
  rapportoTipo: RAPPORTO_TIPO_LABELS,
  rapportoStato: RAPPORTO_STATO_LABELS,
  rapportoStatoTone: RAPPORTO_STATO_TONES,
  ruolo: RUOLO_RAPPORTO_LABELS,
  legame: LEGAME_TIPO_LABELS,
  controllo: TIPO_CONTROLLO_LABELS,
  fonte: FONTE_LABELS,
  documento: DOCUMENTO_TIPO_LABELS,
  documentoStato: DOCUMENTO_STATO_LABELS,
  documentoStatoTone: DOCUMENTO_STATO_TONES,
  segno: SEGNO_LABELS,
  segnoTone: SEGNO_TONES,
} as const;

