import type { DossierAction, DossierStatus } from '../../../workflows/dossier/dossier.machine';
import type { DossierSection } from '../../../workflows/dossier/dossier.sections';

export const DOSSIER_SECTION_LABELS: Record<DossierSection, string> = {
  identita: 'Identità', rapporti: 'Rapporti', titolari: 'Titolari effettivi e struttura proprietaria', documenti: 'Indice dei documenti',
  cdd: 'Adeguata verifica', edd: 'Verifica rafforzata', rischio: 'Rischio e sua spiegazione', screening: 'Esiti dello screening',
  movimenti: 'Sintesi dei movimenti', casi: 'Casi di indagine',
};

export const DOSSIER_STATO_LABELS: Record<DossierStatus, string> = {
  generated: 'Generato', signing: 'In firma', signed: 'Firmato', archived: 'Archiviato',
};
export const DOSSIER_STATO_TONES: Record<DossierStatus, string> = {
  generated: 'azure', signing: 'yellow', signed: 'green', archived: 'secondary',
};
export const DOSSIER_AZIONE_LABELS: Record<DossierAction, string> = {
  sign: 'Avvia la firma', 'complete-signing': 'Completa la firma', archive: 'Archivia',
};

/** The timeline's words for an event of the dossier. */
export function dossierEventText(action: DossierAction | 'generate', reason?: string): string {
  const base = action === 'generate' ? 'Fascicolo generato' : action === 'sign' ? 'Cerimonia di firma avviata'
    : action === 'complete-signing' ? 'Fascicolo firmato' : 'Fascicolo archiviato';
  return reason ? `${base}: ${reason}` : base;
}
