import type {
  ClasseRischio, Fonte, RuoloRapporto, StatoAnagrafe, TipoControllo, TipoDocumento, TipoLegame, TipoSoggetto, UsoContanti,
} from './records.vocabulary';

/** Italian labels of the records area's vocabularies (pages, exports, messages). */
export const TIPO_SOGGETTO_LABELS: Record<TipoSoggetto, string> = {
  persona_fisica: 'Persona fisica', ditta_individuale: 'Ditta individuale', societa: 'Società',
};
export const STATO_ANAGRAFE_LABELS: Record<StatoAnagrafe, string> = {
  attivo: 'Attivo', sospeso: 'Sospeso', cessato: 'Cessato', eliminato: 'Eliminato',
};
export const CLASSE_RISCHIO_LABELS: Record<ClasseRischio, string> = {
  basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto',
};
export const STATO_RAPPORTO_LABELS: Record<'attivo' | 'sospeso' | 'chiuso', string> = {
  attivo: 'Attivo', sospeso: 'Sospeso', chiuso: 'Chiuso',
};
export const RUOLO_RAPPORTO_LABELS: Record<RuoloRapporto, string> = {
  intestatario: 'Intestatario', cointestatario: 'Cointestatario', esecutore: 'Esecutore', delegato: 'Delegato',
  titolare_effettivo: 'Titolare effettivo',
};
export const FONTE_LABELS: Record<Fonte, string> = {
  onboarding: 'Onboarding', manuale: 'Inserimento manuale', import: 'Importazione', registro: 'Registro delle imprese',
};
export const TIPO_LEGAME_LABELS: Record<TipoLegame, string> = {
  titolare_effettivo: 'Titolare effettivo', legale_rappresentante: 'Legale rappresentante', amministratore: 'Amministratore',
  socio: 'Socio', procuratore: 'Procuratore', esecutore: 'Esecutore', delegato: 'Delegato', familiare: 'Familiare',
  stretto_collaboratore: 'Stretto collaboratore', controllante: 'Controllante', altro: 'Altro',
};
export const TIPO_CONTROLLO_LABELS: Record<TipoControllo, string> = {
  proprieta_diretta: 'Proprietà diretta', proprieta_indiretta: 'Proprietà indiretta', controllo: 'Controllo', rappresentanza: 'Rappresentanza',
};
export const TIPO_DOCUMENTO_LABELS: Record<TipoDocumento, string> = {
  carta_identita: 'Carta d\'identità', passaporto: 'Passaporto', patente: 'Patente di guida', permesso_soggiorno: 'Permesso di soggiorno',
  visura_camerale: 'Visura camerale', atto_costitutivo: 'Atto costitutivo', statuto: 'Statuto', altro: 'Altro documento',
};
export const STATO_DOCUMENTO_LABELS: Record<'valido' | 'scaduto' | 'sostituito', string> = {
  valido: 'Valido', scaduto: 'Scaduto', sostituito: 'Sostituito',
};

export const USO_CONTANTI_LABELS: Record<UsoContanti, string> = {
  nessuno: 'Nessuno', basso: 'Basso', medio: 'Medio', alto: 'Alto',
};

/** The Italian names of a customer record's fields (the version history says which changed). */
export const CAMPO_ANAGRAFE_LABELS: Record<string, string> = {
  tipo_soggetto: 'Tipo di soggetto', denominazione: 'Denominazione', nome: 'Nome', cognome: 'Cognome', codice_fiscale: 'Codice fiscale',
  partita_iva: 'Partita IVA', codice_fiscale_estero: 'Codice fiscale estero', paese_fiscale: 'Paese di residenza fiscale',
  data_nascita: 'Data di nascita', luogo_nascita: 'Luogo di nascita', nazionalita: 'Nazionalità', paese_residenza: 'Paese di residenza',
  indirizzo: 'Indirizzo', email: 'E-mail', telefono: 'Telefono', attivita: 'Attività', pep: 'Persona politicamente esposta',
  classe_rischio: 'Classe di rischio', punteggio_rischio: 'Punteggio di rischio', stato: 'Stato', motivo_eliminazione: 'Motivo dell\'eliminazione',
  codice_esterno: 'Codice esterno', ateco: 'Codice ATECO', professione: 'Professione', data_onboarding: 'Cliente dal',
  volume_mensile_atteso_eur: 'Volume mensile atteso', uso_contanti_atteso: 'Uso del contante atteso',
};
