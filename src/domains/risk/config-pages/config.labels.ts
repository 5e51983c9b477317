import type { Approvazione, Classe, Famiglia, LivelloCdd, StatoVersione } from '../risk.types';

/** The Italian words of the configuration pages (one dictionary, so a translation can be added). */
export const CLASSE_LABELS: Record<Classe, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
export const CLASSE_TONES: Record<Classe, string> = { basso: 'green', medio: 'yellow', medio_alto: 'orange', alto: 'red' };

export const FAMIGLIA_LABELS: Record<Famiglia, string> = {
  cliente: 'Cliente', geografia: 'Area geografica', prodotto: 'Prodotti, servizi e operazioni', canale: 'Canali di distribuzione',
};

export const STATO_VERSIONE_LABELS: Record<StatoVersione, string> = { draft: 'Bozza', active: 'In vigore', retired: 'Ritirata' };
export const STATO_VERSIONE_TONES: Record<StatoVersione, string> = { draft: 'azure', active: 'green', retired: 'secondary' };

export const LIVELLO_CDD_LABELS: Record<LivelloCdd, string> = { semplificata: 'Semplificata', ordinaria: 'Ordinaria', rafforzata: 'Rafforzata' };

export const APPROVAZIONE_LABELS: Record<Approvazione, string> = {
  analyst: 'Operatore', co: 'Responsabile antiriciclaggio', co_four_eyes: 'Due responsabili antiriciclaggio (quattro occhi)',
};
