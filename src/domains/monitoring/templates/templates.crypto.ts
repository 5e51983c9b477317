import type { ModelloRegola } from './template.types';

/**
 * Crypto exposure (KYT events are movements with an address): a counterparty address on the
 * screening area's sanctioned addresses (named list `indirizzi_crypto_sanzionati`, versioned with
 * the sanctions imports) or on the tenant's own list (`indirizzi_crypto_tenant`, which every tenant
 * has, empty, from the start). Any amount: exposure to a sanctioned address is the finding.
 */

export const cryptoIndirizziSanzionati: ModelloRegola = {
  cod_regola: 'crypto_indirizzi_sanzionati',
  nome: 'Trasferimento cripto con un indirizzo sanzionato',
  tipologia: 'crypto_indirizzi_sanzionati',
  descrizione: 'L\'indirizzo della controparte di un trasferimento di cripto-attività, in entrata o in uscita, è tra gli indirizzi '
    + 'sanzionati delle liste dell\'area screening (es. OFAC SDN). Qualsiasi importo.',
  ambito: 'evento', livello: 'cliente', punteggio: 95, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['27.4'],
  condizione: { campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_sanzionati' } },
};

export const cryptoListeInterne: ModelloRegola = {
  cod_regola: 'crypto_liste_interne',
  nome: 'Trasferimento cripto con un indirizzo della lista interna',
  tipologia: 'crypto_liste_interne',
  descrizione: 'L\'indirizzo della controparte di un trasferimento di cripto-attività è nella lista interna degli indirizzi cripto '
    + 'del soggetto obbligato (indirizzi_crypto_tenant: mixer, truffe, indirizzi segnalati).',
  ambito: 'evento', livello: 'cliente', punteggio: 80, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['27.4', '26.8'],
  condizione: { campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_tenant' } },
};
