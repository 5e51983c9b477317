/**
 * The vocabularies of the verifications area (issue 13), as the migrations' CHECKs write them
 * (migrations/20261206000100..000400). One list each, with its Italian labels: the machines, the
 * zod schemas, the pages and the OpenAPI document all read these.
 */

export const TIPI_VERIFICA = ['kyc', 'kyb'] as const;
export type TipoVerifica = (typeof TIPI_VERIFICA)[number];

export const STATI_VERIFICA = ['pending', 'in_progress', 'approved', 'rejected', 'expired'] as const;
export type StatoVerifica = (typeof STATI_VERIFICA)[number];
export const STATO_VERIFICA_LABELS: Record<StatoVerifica, string> = {
  pending: 'In attesa', in_progress: 'In lavorazione', approved: 'Approvata', rejected: 'Respinta', expired: 'Scaduta',
};
export const STATO_VERIFICA_TONES: Record<StatoVerifica, string> = {
  pending: 'secondary', in_progress: 'info', approved: 'success', rejected: 'danger', expired: 'warning',
};

export const ORIGINI_VERIFICA = ['manuale', 'onboarding', 'cdd', 'rinnovo'] as const;
export type OrigineVerifica = (typeof ORIGINI_VERIFICA)[number];
export const ORIGINE_VERIFICA_LABELS: Record<OrigineVerifica, string> = {
  manuale: 'Manuale', onboarding: 'Onboarding', cdd: 'Adeguata verifica', rinnovo: 'Rinnovo',
};

export const TIPI_CHECK = ['registro', 'rappresentanti', 'titolari_effettivi', 'pep', 'sanzioni', 'informazioni_negative', 'documenti', 'altro'] as const;
export type TipoCheck = (typeof TIPI_CHECK)[number];
export const TIPO_CHECK_LABELS: Record<TipoCheck, string> = {
  registro: 'Dati del registro delle imprese', rappresentanti: 'Legali rappresentanti', titolari_effettivi: 'Titolari effettivi identificati',
  pep: 'Persone politicamente esposte', sanzioni: 'Liste sanzioni', informazioni_negative: 'Informazioni negative (adverse media)',
  documenti: 'Documenti societari', altro: 'Altro controllo',
};
/** The checks every KYB starts with (one each; 'altro' may be added more than once). */
export const KYB_STANDARD_CHECKS = ['registro', 'rappresentanti', 'titolari_effettivi', 'pep', 'sanzioni', 'informazioni_negative', 'documenti'] as const satisfies readonly TipoCheck[];

export const STATI_CHECK = ['pending', 'passed', 'failed', 'waived'] as const;
export type StatoCheck = (typeof STATI_CHECK)[number];
export const STATO_CHECK_LABELS: Record<StatoCheck, string> = { pending: 'Da eseguire', passed: 'Superato', failed: 'Non superato', waived: 'Derogato' };
export const STATO_CHECK_TONES: Record<StatoCheck, string> = { pending: 'secondary', passed: 'success', failed: 'danger', waived: 'warning' };

export const TIPI_NODO = ['persona_fisica', 'societa', 'trust', 'societa_quotata', 'ente_pubblico'] as const;
export type TipoNodo = (typeof TIPI_NODO)[number];
export const TIPO_NODO_LABELS: Record<TipoNodo, string> = {
  persona_fisica: 'Persona fisica', societa: 'Società', trust: 'Trust o istituto giuridico affine', societa_quotata: 'Società quotata', ente_pubblico: 'Ente pubblico',
};

export const TIPI_ARCO = [
  'partecipazione', 'controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale',
  'disponente', 'trustee', 'protettore', 'beneficiario', 'rappresentante_legale', 'amministratore', 'direttore',
] as const;
export type TipoArco = (typeof TIPI_ARCO)[number];
export const TIPO_ARCO_LABELS: Record<TipoArco, string> = {
  partecipazione: 'Partecipazione al capitale', controllo_maggioranza_voti: 'Controllo della maggioranza dei voti',
  influenza_dominante: 'Voti sufficienti per un\'influenza dominante', controllo_contrattuale: 'Controllo per vincoli contrattuali',
  disponente: 'Disponente (fondatore)', trustee: 'Trustee', protettore: 'Guardiano (protector)', beneficiario: 'Beneficiario',
  rappresentante_legale: 'Legale rappresentante', amministratore: 'Amministratore', direttore: 'Direttore generale',
};

export const STATI_TRAVEL_RULE = ['received', 'screened', 'approved', 'rejected', 'returned', 'held'] as const;
export type StatoTravelRule = (typeof STATI_TRAVEL_RULE)[number];
export const STATO_TRAVEL_RULE_LABELS: Record<StatoTravelRule, string> = {
  received: 'Ricevuta', screened: 'Verificata', approved: 'Approvata', rejected: 'Respinta', returned: 'Restituita', held: 'Sospesa',
};
export const STATO_TRAVEL_RULE_TONES: Record<StatoTravelRule, string> = {
  received: 'secondary', screened: 'info', approved: 'success', rejected: 'danger', returned: 'warning', held: 'warning',
};
export const DECISIONI_TRAVEL_RULE = ['approved', 'rejected', 'returned', 'held'] as const;
export type DecisioneTravelRule = (typeof DECISIONI_TRAVEL_RULE)[number];
export const DIREZIONI_TRAVEL_RULE = ['in_uscita', 'in_entrata'] as const;
export type DirezioneTravelRule = (typeof DIREZIONI_TRAVEL_RULE)[number];

export const ESITI_DOCUMENTO = ['da_verificare', 'valido', 'non_valido'] as const;
export type EsitoDocumento = (typeof ESITI_DOCUMENTO)[number];
export const ESITO_DOCUMENTO_LABELS: Record<EsitoDocumento, string> = { da_verificare: 'Da verificare', valido: 'Verificato', non_valido: 'Non valido' };

/** KYB company profile: the legal forms (Italian codice civile forms, public bodies, foreign entities). */
export const FORME_GIURIDICHE = ['srl', 'srls', 'spa', 'sapa', 'snc', 'sas', 'coop', 'consorzio', 'fondazione', 'associazione', 'ente_pubblico', 'societa_estera', 'altro'] as const;
export type FormaGiuridica = (typeof FORME_GIURIDICHE)[number];
export const FORMA_GIURIDICA_LABELS: Record<FormaGiuridica, string> = {
  srl: 'S.r.l.', srls: 'S.r.l. semplificata', spa: 'S.p.A.', sapa: 'S.a.p.a.', snc: 'S.n.c.', sas: 'S.a.s.', coop: 'Società cooperativa',
  consorzio: 'Consorzio', fondazione: 'Fondazione', associazione: 'Associazione', ente_pubblico: 'Ente pubblico', societa_estera: 'Società estera', altro: 'Altra forma',
};
