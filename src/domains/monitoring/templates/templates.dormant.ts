import type { ModelloRegola } from './template.types';

/**
 * A dormant relationship reactivated: it moved in the two years before the window, never in the
 * six months before it, and now moves a relevant amount. Evaluated per relationship that moved
 * that day (`livello: rapporto`), so an account left idle while the customer uses another one is
 * seen as well; a customer idle on every account is idle on each.
 */

const rapporto = { livello: 'rapporto' } as const;
export const riattivazioneDormiente: ModelloRegola = {
  cod_regola: 'riattivazione_dormiente',
  nome: 'Rapporto inattivo riattivato con importi rilevanti',
  tipologia: 'riattivazione_dormiente',
  descrizione: 'Un rapporto senza operazioni nei 180 giorni precedenti (ma con operazioni nei due anni prima) che negli ultimi '
    + '30 giorni movimenta almeno 3.000 €. Un rapporto nuovo, senza alcuno storico, non è "dormiente".',
  ambito: 'giornaliero', livello: 'rapporto', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 60,
  indicatori: ['33.9', '15.17', '26.4'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, ...rapporto }, op: 'gte', valore: 3_000 },
    { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 180, ...rapporto }, op: 'not_exists' },
    { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 730, ...rapporto }, op: 'exists' },
  ] },
};
