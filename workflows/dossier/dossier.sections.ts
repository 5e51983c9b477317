/**
 * The parts a customer dossier may hold, in the order the PDF prints them (issue 25, "Dossiers").
 * Identity is always there: a dossier without its subject would be nobody's.
 */
export const DOSSIER_SECTIONS = [
  'identita', 'rapporti', 'titolari', 'documenti', 'cdd', 'edd', 'rischio', 'screening', 'movimenti', 'casi',
] as const;
export type DossierSection = (typeof DOSSIER_SECTIONS)[number];
export const REQUIRED_SECTIONS: readonly DossierSection[] = ['identita'];

/** The sections in print order, identity added, duplicates dropped. */
export const normaliseSections = (chosen: readonly DossierSection[]): DossierSection[] =>
  DOSSIER_SECTIONS.filter((s) => REQUIRED_SECTIONS.includes(s) || chosen.includes(s));
