/** The vocabularies of the customer data model (the migration's CHECK constraints spell the same lists). */
export const TIPI_SOGGETTO = ['persona_fisica', 'ditta_individuale', 'societa'] as const;
export const STATI_ANAGRAFE = ['attivo', 'sospeso', 'cessato', 'eliminato'] as const;
export const CLASSI_RISCHIO = ['basso', 'medio', 'medio_alto', 'alto'] as const;
export const STATI_RAPPORTO = ['attivo', 'sospeso', 'chiuso'] as const;
export const RUOLI_RAPPORTO = ['intestatario', 'cointestatario', 'esecutore', 'delegato', 'titolare_effettivo'] as const;
export const FONTI = ['onboarding', 'manuale', 'import', 'registro'] as const;
export const TIPI_LEGAME = [
  'titolare_effettivo', 'legale_rappresentante', 'amministratore', 'socio', 'procuratore', 'esecutore', 'delegato',
  'familiare', 'stretto_collaboratore', 'controllante', 'altro',
] as const;
export const TIPI_CONTROLLO = ['proprieta_diretta', 'proprieta_indiretta', 'controllo', 'rappresentanza'] as const;
export const TIPI_DOCUMENTO = [
  'carta_identita', 'passaporto', 'patente', 'permesso_soggiorno', 'visura_camerale', 'atto_costitutivo', 'statuto', 'altro',
] as const;
export const STATI_DOCUMENTO = ['valido', 'scaduto', 'sostituito'] as const;
/** The declared expected cash use (anagrafe.uso_contanti_atteso). */
export const USI_CONTANTI = ['nessuno', 'basso', 'medio', 'alto'] as const;

export type TipoSoggetto = (typeof TIPI_SOGGETTO)[number];
export type StatoAnagrafe = (typeof STATI_ANAGRAFE)[number];
export type ClasseRischio = (typeof CLASSI_RISCHIO)[number];
export type RuoloRapporto = (typeof RUOLI_RAPPORTO)[number];
export type Fonte = (typeof FONTI)[number];
export type TipoLegame = (typeof TIPI_LEGAME)[number];
export type TipoControllo = (typeof TIPI_CONTROLLO)[number];
export type TipoDocumento = (typeof TIPI_DOCUMENTO)[number];
export type UsoContanti = (typeof USI_CONTANTI)[number];
