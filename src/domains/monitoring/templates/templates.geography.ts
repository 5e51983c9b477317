import { STORICO_GIORNI } from './templates.common';
import type { ModelloRegola } from './template.types';

/**
 * High-risk countries: the counterparty's country or the country of its IBAN (a foreign account
 * of a domestic-looking counterparty counts) in the EU list of high-risk third countries or the
 * FATF "call for action" list (the named lists, versioned reference data). A customer whose flows
 * with those countries are steady (a family's remittances) is alerted when the exposure begins or
 * grows, not every month.
 */

const PAESI = { lista: 'paesi_alto_rischio' } as const;
const GAFI = { lista: 'paesi_gafi_black' } as const;

export const paesiAltoRischio: ModelloRegola = {
  cod_regola: 'paesi_alto_rischio',
  nome: 'Operazioni con paesi ad alto rischio',
  tipologia: 'paesi_alto_rischio',
  descrizione: 'Operazione di almeno 1.000 € con una controparte di un paese terzo ad alto rischio (Reg. delegato UE 2016/1675) '
    + 'o della lista GAFI "call for action", per paese della controparte o dell\'IBAN. Non scatta quando i flussi con questi '
    + 'paesi negli ultimi 30 giorni sono in linea con quelli abituali del cliente (meno del doppio della media degli ultimi sei mesi).',
  ambito: 'evento', livello: 'cliente', punteggio: 65, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['9.6', '11.2', '10.16'],
  condizione: { tutti: [
    { almeno_uno: [
      { campo: 'evento.controparte_paese', op: 'in', valore: PAESI },
      { campo: 'evento.controparte_iban_paese', op: 'in', valore: PAESI },
      { campo: 'evento.controparte_paese', op: 'in', valore: GAFI },
      { campo: 'evento.controparte_iban_paese', op: 'in', valore: GAFI },
    ] },
    { campo: 'evento.importo_eur', op: 'gte', valore: 1_000 },
    { non: { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: STORICO_GIORNI, paesi_controparte: PAESI }, op: 'lt', valore: 2 } },
  ] },
};
