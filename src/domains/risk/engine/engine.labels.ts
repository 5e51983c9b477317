import type { Approvazione, Classe, Famiglia, LivelloCdd, StatoVersione } from '../risk.types';

/** The model's words in Italian, for the pages and the explanations. */
export const CLASSE_LABELS: Record<Classe, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
export const FAMIGLIA_LABELS: Record<Famiglia, string> = {
  cliente: 'Cliente', geografia: 'Area geografica', prodotto: 'Prodotti, servizi e operazioni', canale: 'Canali di distribuzione',
};
export const LIVELLO_CDD_LABELS: Record<LivelloCdd, string> = { semplificata: 'Semplificata', ordinaria: 'Ordinaria', rafforzata: 'Rafforzata' };
export const APPROVAZIONE_LABELS: Record<Approvazione, string> = {
  analyst: 'Operatore', co: 'Responsabile antiriciclaggio', co_four_eyes: 'Responsabile antiriciclaggio con seconda approvazione',
};
export const STATO_VERSIONE_LABELS: Record<StatoVersione, string> = { draft: 'Bozza', active: 'Attiva', retired: 'Ritirata' };
