import type { KycTemplateDef } from './kyc-template.types';

/**
 * The default KYC questionnaire (version 1), seeded by migration 20261204010000: what a
 * compliance officer asks at every due diligence (art. 18 c.1 lett. c-d d.lgs. 231/2007: purpose
 * and nature of the relationship, ongoing monitoring; art. 24-25 and Allegato 2 for the
 * enhanced cases: source of funds and of wealth). Frozen once released: a change of questions
 * is a new version (a new row of questionari_template made active), so answers given under
 * version 1 keep the meaning they had.
 */
export const DEFAULT_KYC_TEMPLATE: KycTemplateDef = {
  id: '5c0d4a5e-6b0f-4f3a-9a41-0c2d7e1b9a01',
  codice: 'kyc-standard',
  versione: 1,
  titolo: 'Questionario di adeguata verifica',
  domande: [
    {
      id: 'scopo_rapporto', etichetta: 'Scopo del rapporto', tipo: 'scelta', obbligatoria: true,
      aiuto: 'La ragione principale per cui il cliente si avvale dei servizi.',
      opzioni: [
        { valore: 'investimento', etichetta: 'Investimento' },
        { valore: 'pagamenti', etichetta: 'Pagamenti e trasferimenti' },
        { valore: 'trading', etichetta: 'Compravendita frequente (trading)' },
        { valore: 'custodia', etichetta: 'Custodia di cripto-attività' },
        { valore: 'attivita_impresa', etichetta: 'Incassi e pagamenti dell\'attività d\'impresa' },
        { valore: 'altro', etichetta: 'Altro' },
      ],
    },
    {
      id: 'scopo_dettaglio', etichetta: 'Descrizione dello scopo del rapporto', tipo: 'testo', obbligatoria: false,
      richiesta_se: { domanda: 'scopo_rapporto', valori: ['altro'] },
    },
    {
      id: 'natura_rapporto', etichetta: 'Natura del rapporto', tipo: 'scelta', obbligatoria: true,
      opzioni: [
        { valore: 'continuativo', etichetta: 'Rapporto continuativo' },
        { valore: 'occasionale', etichetta: 'Operazioni occasionali' },
      ],
    },
    {
      id: 'origine_fondi', etichetta: 'Origine dei fondi impiegati nel rapporto', tipo: 'scelta', obbligatoria: true,
      opzioni: [
        { valore: 'reddito_lavoro', etichetta: 'Reddito da lavoro o pensione' },
        { valore: 'reddito_impresa', etichetta: 'Ricavi dell\'attività d\'impresa' },
        { valore: 'risparmi', etichetta: 'Risparmi' },
        { valore: 'investimenti', etichetta: 'Proventi di investimenti' },
        { valore: 'vendita_beni', etichetta: 'Vendita di immobili o altri beni' },
        { valore: 'eredita_donazione', etichetta: 'Eredità o donazione' },
        { valore: 'finanziamento', etichetta: 'Finanziamento o prestito' },
        { valore: 'altro', etichetta: 'Altro' },
      ],
    },
    {
      id: 'origine_fondi_dettaglio', etichetta: 'Dettaglio sull\'origine dei fondi', tipo: 'testo', obbligatoria: true,
      aiuto: 'Ad esempio: stipendio da dipendente presso…, vendita dell\'immobile di…, ricavi della vendita di…',
    },
    {
      id: 'origine_patrimonio', etichetta: 'Origine del patrimonio complessivo', tipo: 'scelta', obbligatoria: true,
      aiuto: 'Come si è formato il patrimonio del cliente nel suo insieme (non solo i fondi di questo rapporto).',
      opzioni: [
        { valore: 'lavoro', etichetta: 'Lavoro dipendente o autonomo' },
        { valore: 'impresa', etichetta: 'Attività d\'impresa' },
        { valore: 'eredita', etichetta: 'Eredità' },
        { valore: 'investimenti', etichetta: 'Investimenti' },
        { valore: 'vendita_immobili', etichetta: 'Vendita di immobili' },
        { valore: 'altro', etichetta: 'Altro' },
      ],
    },
    {
      id: 'volume_annuo', etichetta: 'Volume annuo previsto delle operazioni', tipo: 'scelta', obbligatoria: true,
      opzioni: [
        { valore: 'fino_10k', etichetta: 'Fino a 10.000 €' },
        { valore: '10k_50k', etichetta: 'Da 10.000 € a 50.000 €' },
        { valore: '50k_250k', etichetta: 'Da 50.000 € a 250.000 €' },
        { valore: '250k_1m', etichetta: 'Da 250.000 € a 1.000.000 €' },
        { valore: 'oltre_1m', etichetta: 'Oltre 1.000.000 €' },
      ],
    },
    {
      id: 'operazioni_mensili', etichetta: 'Numero di operazioni previste al mese', tipo: 'numero', obbligatoria: false, min: 0,
      aiuto: 'Una stima: serve a riconoscere un\'operatività anomala rispetto a quella dichiarata.',
    },
    {
      id: 'contanti', etichetta: 'I fondi provengono in misura rilevante da operatività in contanti?', tipo: 'booleano', obbligatoria: true,
    },
    {
      id: 'paesi_operativita', etichetta: 'Paesi con cui il cliente opera o da cui provengono i fondi', tipo: 'paesi', obbligatoria: true,
      aiuto: 'Codici ISO a due lettere (IT, FR, …).',
    },
    {
      id: 'pep', etichetta: 'Il cliente (o un suo titolare effettivo) è una persona politicamente esposta?', tipo: 'booleano', obbligatoria: true,
      aiuto: 'Anche familiari e stretti collaboratori di una persona politicamente esposta (art. 1 c.2 lett. dd d.lgs. 231/2007).',
    },
    {
      id: 'pep_dettaglio', etichetta: 'Carica pubblica ricoperta, ente e periodo', tipo: 'testo', obbligatoria: false,
      richiesta_se: { domanda: 'pep', valori: [true] },
    },
    {
      id: 'titolare_effettivo_dichiarato', etichetta: 'I titolari effettivi dichiarati sono completi e aggiornati?', tipo: 'booleano', obbligatoria: true,
      solo_per: ['societa'],
      aiuto: 'Le persone fisiche che possiedono più del 25% o controllano l\'ente (art. 20 d.lgs. 231/2007).',
    },
    {
      id: 'struttura_proprietaria', etichetta: 'Descrizione della catena di controllo', tipo: 'testo', obbligatoria: true,
      solo_per: ['societa'],
      aiuto: 'Soci, società intermedie, fiduciari o trust fino alle persone fisiche.',
    },
    {
      id: 'professione', etichetta: 'Professione o attività lavorativa', tipo: 'testo', obbligatoria: true,
      solo_per: ['persona_fisica', 'ditta_individuale'],
    },
  ],
};
