import type { UboCriterion, UboRule, UboWarningCode } from './ubo.types';

/** The rules' Italian names and legal references, shown with each owner and in docs/ubo.md. */
export const UBO_RULE_LABELS: Record<UboRule, string> = {
  proprieta_diretta: 'Proprietà diretta', proprieta_indiretta: 'Proprietà indiretta',
  controllo_maggioranza_voti: 'Controllo della maggioranza dei voti', influenza_dominante: 'Voti sufficienti per un\'influenza dominante',
  controllo_contrattuale: 'Controllo per vincoli contrattuali',
  trust_disponente: 'Disponente del trust', trust_trustee: 'Trustee', trust_protettore: 'Guardiano del trust',
  trust_beneficiario: 'Beneficiario del trust', trust_controllo: 'Controllo effettivo sul trust',
  rappresentante_legale: 'Legale rappresentante', amministratore: 'Amministratore', direttore: 'Direttore generale',
};

const ART20 = 'art. 20, comma';
export const UBO_RULE_REFERENCES: Record<UboRule, string> = {
  proprieta_diretta: `${ART20} 2, lett. a), d.lgs. 231/2007`,
  proprieta_indiretta: `${ART20} 2, lett. b), d.lgs. 231/2007`,
  controllo_maggioranza_voti: `${ART20} 3, lett. a), d.lgs. 231/2007; art. 2359, comma 1, n. 1, c.c.`,
  influenza_dominante: `${ART20} 3, lett. b), d.lgs. 231/2007; art. 2359, comma 1, n. 2, c.c.`,
  controllo_contrattuale: `${ART20} 3, lett. c), d.lgs. 231/2007; art. 2359, comma 1, n. 3, c.c.`,
  trust_disponente: 'art. 22, comma 5, d.lgs. 231/2007 (costituente)',
  trust_trustee: 'art. 22, comma 5, d.lgs. 231/2007 (fiduciario)',
  trust_protettore: 'art. 22, comma 5, d.lgs. 231/2007 (guardiano)',
  trust_beneficiario: 'art. 22, comma 5, d.lgs. 231/2007 (beneficiari)',
  trust_controllo: 'art. 22, comma 5, d.lgs. 231/2007 (altre persone che esercitano il controllo)',
  rappresentante_legale: `${ART20} 5, d.lgs. 231/2007`,
  amministratore: `${ART20} 5, d.lgs. 231/2007`,
  direttore: `${ART20} 5, d.lgs. 231/2007`,
};

/** The multiplicative method's ownership reference: the directive's definition read with products along paths. */
export const MULTIPLICATIVE_REFERENCE = 'art. 3, punto 6, lett. a), i), direttiva (UE) 2015/849 — metodo moltiplicativo (somma dei prodotti lungo i percorsi)';

export const UBO_CRITERION_LABELS: Record<UboCriterion, string> = {
  proprieta: 'Proprietà (art. 20, comma 2)', controllo: 'Controllo (art. 20, comma 3)',
  residuale: 'Criterio residuale: rappresentanza, amministrazione, direzione (art. 20, comma 5)',
  trust: 'Trust e istituti affini (art. 22, comma 5)', nessuno: 'Nessun titolare effettivo individuato',
};

/** The title of each structured warning on the page. */
export const UBO_WARNING_LABELS: Record<UboWarningCode, string> = {
  rappresentanti_mancanti: 'Mancano i legali rappresentanti o gli amministratori',
};
