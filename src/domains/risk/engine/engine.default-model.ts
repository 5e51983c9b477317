import type { Condizione } from '../../../kit/conditions/condition.types';
import type { Approvazione, Classe, Famiglia, LivelloCdd } from '../risk.types';

/**
 * The default risk model every tenant starts from (seeded on first use, then edited as data
 * from the pages and the API). Rule set v1 is the onboarding factor model of
 * docs/onboarding-risk.md transcribed into rules with the same points (so an applicant scores
 * as before), plus rules over the customer's movements. Each factor belongs to one of the
 * four families of EBA/GL/2021/02 (customer, geography, products/transactions, channels).
 */

export interface FattoreDefault { codice: string; nome: string; famiglia: Famiglia; descrizione: string }
export interface RegolaDefault {
  codice: string; fattore: string; nome: string; descrizione: string; condizione: Condizione; punti: number; classe_minima?: Classe;
}
export interface SogliaDefault { classe: Classe; punteggio_min: number; livello_cdd: LivelloCdd; revisione_mesi: number; approvazione: Approvazione; descrizione: string }

export const DEFAULT_MODEL_DESCRIPTION = 'Modello predefinito: fattori dell\'onboarding e dei movimenti (EBA/GL/2021/02)';
/** The id onboarding results carry for results of a tenant's rule set: `rischio-v<versione>`. */
export const modelId = (versione: number) => `rischio-v${versione}`;

const q = (domanda: string) => `questionario.${domanda}`;
const f = (campo: string, op: 'eq' | 'gt' | 'gte' | 'in' | 'intersects', valore: unknown): Condizione => ({ campo, op, valore } as Condizione);
const agg = (aggregato: Extract<Condizione, { aggregato: unknown }>['aggregato'], op: 'gt' | 'gte', valore: number): Condizione => ({ aggregato, op, valore });

export const DEFAULT_FACTORS: FattoreDefault[] = [
  // Customer (EBA 2.3-2.6)
  { codice: 'tipo_soggetto', nome: 'Natura giuridica del cliente', famiglia: 'cliente', descrizione: 'Persona fisica, ditta individuale o società (struttura societaria e titolarità effettiva da verificare).' },
  { codice: 'pep', nome: 'Persona politicamente esposta', famiglia: 'cliente', descrizione: 'PEP tra cliente, legali rappresentanti e titolari effettivi (art. 24 c.5 e art. 25 d.lgs. 231/2007).' },
  { codice: 'screening', nome: 'Corrispondenze con liste di sanzioni', famiglia: 'cliente', descrizione: 'Corrispondenze aperte o confermate dello screening del cliente.' },
  { codice: 'cdd_origine_fondi', nome: 'Origine dei fondi', famiglia: 'cliente', descrizione: 'Risposta del questionario di adeguata verifica.' },
  { codice: 'cdd_provenienza_patrimonio', nome: 'Provenienza del patrimonio', famiglia: 'cliente', descrizione: 'Risposta del questionario (persone fisiche e ditte).' },
  { codice: 'cdd_settore', nome: 'Settore di attività', famiglia: 'cliente', descrizione: 'Risposta del questionario (società e ditte): settori a più alto rischio.' },
  { codice: 'cdd_contanti', nome: 'Fondi da operatività in contanti', famiglia: 'cliente', descrizione: 'Risposta del questionario.' },
  // Geography (EBA 2.9-2.15)
  { codice: 'paese_alto_rischio', nome: 'Paesi terzi ad alto rischio', famiglia: 'geografia', descrizione: 'Paesi del Reg. delegato (UE) 2016/1675 tra residenza, nazionalità, operatività del cliente e dei suoi collegati.' },
  { codice: 'paese_extra_see', nome: 'Paesi fuori dallo SEE', famiglia: 'geografia', descrizione: 'Collegamenti con paesi fuori dallo Spazio economico europeo.' },
  { codice: 'paese_gafi', nome: 'Paesi sotto monitoraggio GAFI', famiglia: 'geografia', descrizione: 'Giurisdizioni sotto monitoraggio rafforzato del GAFI.' },
  { codice: 'controparti_paesi_rischio', nome: 'Controparti in paesi a rischio', famiglia: 'geografia', descrizione: 'Movimenti dell\'ultimo anno con controparti in paesi terzi ad alto rischio o in molti paesi.' },
  { codice: 'cdd_paesi_alto_rischio', nome: 'Operatività dichiarata con paesi a rischio', famiglia: 'geografia', descrizione: 'Risposta del questionario.' },
  // Products, services, transactions (EBA 2.16-2.18)
  { codice: 'wallet_sanzionato', nome: 'Wallet in liste di sanzioni', famiglia: 'prodotto', descrizione: 'Indirizzi dichiarati presenti in liste di sanzioni.' },
  { codice: 'wallet_self_hosted', nome: 'Wallet self-hosted', famiglia: 'prodotto', descrizione: 'Indirizzi non custoditi (Reg. UE 2023/1113, artt. 14 e 16).' },
  { codice: 'contanti', nome: 'Uso del contante', famiglia: 'prodotto', descrizione: 'Quota e importi dei movimenti in contanti.' },
  { codice: 'volumi', nome: 'Volumi rispetto al dichiarato e alla storia', famiglia: 'prodotto', descrizione: 'Movimenti oltre il volume annuo dichiarato o molto sopra la media del cliente.' },
  { codice: 'controparti', nome: 'Numero di controparti', famiglia: 'prodotto', descrizione: 'Molte controparti distinte in poco tempo.' },
  { codice: 'cdd_scopo_rapporto', nome: 'Scopo del rapporto', famiglia: 'prodotto', descrizione: 'Risposta del questionario.' },
  { codice: 'cdd_natura_rapporto', nome: 'Natura del rapporto', famiglia: 'prodotto', descrizione: 'Risposta del questionario.' },
  { codice: 'cdd_volume_annuo', nome: 'Volume annuo previsto', famiglia: 'prodotto', descrizione: 'Risposta del questionario.' },
  { codice: 'cdd_attivita_cripto', nome: 'Attività in cripto-attività', famiglia: 'prodotto', descrizione: 'Risposta del questionario.' },
  // Channels (EBA 2.19-2.21)
  { codice: 'canale_remoto', nome: 'Rapporto a distanza', famiglia: 'canale', descrizione: 'Rapporto avviato senza la presenza fisica del cliente.' },
  { codice: 'intermediario', nome: 'Intermediari', famiglia: 'canale', descrizione: 'Rapporto introdotto da un intermediario o da terzi.' },
];

const PERSONE = ['persona_fisica', 'ditta_individuale'];
const IMPRESE = ['societa', 'ditta_individuale'];
const perTipo = (tipi: string[], c: Condizione): Condizione => ({ tutti: [f('cliente.tipo_soggetto', 'in', tipi), c] });

/** A questionnaire answer (or group of answers with the same weight) as a rule over `questionario.<domanda>`. */
const risposta = (codice: string, domanda: string, nome: string, valori: string[] | true, punti: number, tipi?: string[]): RegolaDefault => {
  const c = valori === true ? f(q(domanda), 'eq', true) : f(q(domanda), 'in', valori);
  return { codice, fattore: `cdd_${domanda}`, nome, descrizione: 'Risposta del questionario di adeguata verifica (stessi punti del modello di onboarding).', condizione: tipi ? perTipo(tipi, c) : c, punti };
};

export const DEFAULT_RULES: RegolaDefault[] = [
  // Customer
  { codice: 'tipo_ditta_individuale', fattore: 'tipo_soggetto', nome: 'Tipo di cliente: ditta individuale', descrizione: '', condizione: f('cliente.tipo_soggetto', 'eq', 'ditta_individuale'), punti: 5 },
  { codice: 'tipo_societa', fattore: 'tipo_soggetto', nome: 'Tipo di cliente: società (struttura societaria, titolarità effettiva da verificare)', descrizione: '', condizione: f('cliente.tipo_soggetto', 'eq', 'societa'), punti: 10 },
  { codice: 'pep', fattore: 'pep', nome: 'Persona politicamente esposta tra cliente, legale rappresentante o titolari effettivi', descrizione: 'Mai sotto medio-alto: art. 24 c.5 e art. 25 d.lgs. 231/2007.', condizione: { almeno_uno: [f('cliente.pep', 'eq', true), f('cliente.pep_collegati', 'eq', true), f('titolari.pep', 'eq', true)] }, punti: 30, classe_minima: 'medio_alto' },
  { codice: 'screening_aperto', fattore: 'screening', nome: 'Possibili corrispondenze con liste di sanzioni da esaminare', descrizione: '', condizione: f('screening.corrispondenze_aperte', 'gt', 0), punti: 25 },
  { codice: 'screening_confermato', fattore: 'screening', nome: 'Corrispondenza confermata con una lista di sanzioni', descrizione: 'Un soggetto in lista resta ad alto rischio qualunque sia il resto.', condizione: f('screening.corrispondenze_confermate', 'gt', 0), punti: 40, classe_minima: 'alto' },
  // Geography
  { codice: 'paese_alto_rischio', fattore: 'paese_alto_rischio', nome: 'Collegamento con paesi terzi ad alto rischio (Reg. delegato UE 2016/1675)', descrizione: 'Adeguata verifica rafforzata obbligatoria (art. 24 c.5 d.lgs. 231/2007): sempre alto.', condizione: f('geografia.paesi', 'intersects', { lista: 'paesi_alto_rischio' }), punti: 40, classe_minima: 'alto' },
  {
    codice: 'paese_extra_see', fattore: 'paese_extra_see', nome: 'Collegamento con paesi fuori dallo Spazio economico europeo', descrizione: 'Almeno un paese fuori dallo SEE (anche uno ad alto rischio, che ha già la sua regola).',
    condizione: f('geografia.paesi', 'intersects', { lista: 'paesi_extra_see' }), punti: 5,
  },
  { codice: 'paese_gafi_monitorato', fattore: 'paese_gafi', nome: 'Collegamento con giurisdizioni sotto monitoraggio rafforzato del GAFI', descrizione: '', condizione: f('geografia.paesi', 'intersects', { lista: 'paesi_gafi_grey' }), punti: 10 },
  { codice: 'controparti_alto_rischio', fattore: 'controparti_paesi_rischio', nome: 'Movimenti con controparti in paesi terzi ad alto rischio nell\'ultimo anno', descrizione: '', condizione: agg({ fn: 'count', finestra_giorni: 365, paesi_controparte: { lista: 'paesi_alto_rischio' } }, 'gt', 0), punti: 15 },
  { codice: 'controparti_molti_paesi', fattore: 'controparti_paesi_rischio', nome: 'Controparti in almeno 10 paesi diversi nell\'ultimo anno', descrizione: '', condizione: agg({ fn: 'distinct_countries', finestra_giorni: 365 }, 'gte', 10), punti: 5 },
  // Products, services, transactions
  { codice: 'wallet_sanzionato', fattore: 'wallet_sanzionato', nome: 'Wallet presenti in liste di sanzioni', descrizione: 'Un legame con le sanzioni è decisivo: sempre alto.', condizione: f('prodotto.wallet_sanzionati', 'gt', 0), punti: 40, classe_minima: 'alto' },
  { codice: 'wallet_self_hosted', fattore: 'wallet_self_hosted', nome: 'Wallet self-hosted dichiarati', descrizione: '', condizione: f('prodotto.wallet_self_hosted', 'gt', 0), punti: 5 },
  { codice: 'quota_contanti', fattore: 'contanti', nome: 'Almeno metà dell\'importo movimentato nell\'ultimo anno in contanti', descrizione: '', condizione: agg({ fn: 'cash_share', finestra_giorni: 365 }, 'gte', 0.5), punti: 10 },
  { codice: 'contanti_mese', fattore: 'contanti', nome: 'Contanti per almeno 10.000 € negli ultimi 30 giorni', descrizione: '', condizione: agg({ fn: 'sum', finestra_giorni: 30, contanti: true }, 'gte', 10_000), punti: 10 },
  { codice: 'volume_oltre_dichiarato', fattore: 'volumi', nome: 'Movimenti dell\'ultimo anno oltre una volta e mezza il volume dichiarato', descrizione: '', condizione: agg({ fn: 'ratio_declared', finestra_giorni: 365 }, 'gte', 1.5), punti: 10 },
  { codice: 'volume_oltre_storia', fattore: 'volumi', nome: 'Movimenti degli ultimi 90 giorni oltre il triplo della media del cliente', descrizione: '', condizione: agg({ fn: 'ratio_history', finestra_giorni: 90, storico_giorni: 365 }, 'gte', 3), punti: 10 },
  { codice: 'controparti_numerose', fattore: 'controparti', nome: 'Almeno 50 controparti distinte negli ultimi 90 giorni', descrizione: '', condizione: agg({ fn: 'distinct_counterparties', finestra_giorni: 90 }, 'gte', 50), punti: 5 },
  // Channels
  { codice: 'canale_remoto', fattore: 'canale_remoto', nome: 'Rapporto avviato a distanza, senza presenza fisica del cliente', descrizione: '', condizione: f('canale.canale', 'eq', 'online'), punti: 5 },
  { codice: 'intermediario', fattore: 'intermediario', nome: 'Rapporto introdotto da un intermediario', descrizione: '', condizione: f('canale.intermediario', 'eq', true), punti: 5 },
  // The KYC questionnaire (version cdd-2026-1 of onboarding and the CDD area's template share the question ids)
  risposta('q_scopo_rapporto_2', 'scopo_rapporto', 'Scopo del rapporto: pagamenti, trading o attività d\'impresa', ['pagamenti', 'trading', 'attivita_impresa'], 2),
  risposta('q_scopo_rapporto_altro', 'scopo_rapporto', 'Scopo del rapporto: altro', ['altro'], 3),
  risposta('q_natura_occasionale', 'natura_rapporto', 'Natura del rapporto: operazioni occasionali', ['occasionale'], 2),
  risposta('q_origine_fondi_2', 'origine_fondi', 'Origine dei fondi: investimenti o vendita di beni', ['investimenti', 'vendita_beni'], 2),
  risposta('q_origine_fondi_3', 'origine_fondi', 'Origine dei fondi: eredità, donazione o cripto-attività già possedute', ['eredita_donazione', 'cripto_attivita'], 3),
  risposta('q_origine_fondi_altro', 'origine_fondi', 'Origine dei fondi: altro', ['altro'], 5),
  risposta('q_origine_fondi_vincite', 'origine_fondi', 'Origine dei fondi: vincite da gioco', ['vincite'], 8),
  risposta('q_volume_10k_50k', 'volume_annuo', 'Volume annuo previsto: da 10.000 € a 50.000 €', ['10k_50k'], 3),
  risposta('q_volume_50k_250k', 'volume_annuo', 'Volume annuo previsto: da 50.000 € a 250.000 €', ['50k_250k'], 6),
  risposta('q_volume_250k_1m', 'volume_annuo', 'Volume annuo previsto: da 250.000 € a 1.000.000 €', ['250k_1m'], 10),
  risposta('q_volume_oltre_1m', 'volume_annuo', 'Volume annuo previsto: oltre 1.000.000 €', ['oltre_1m'], 15),
  risposta('q_contanti', 'contanti', 'Fondi provenienti in misura rilevante da operatività in contanti', true, 8),
  risposta('q_paesi_alto_rischio', 'paesi_alto_rischio', 'Dichiara di operare con paesi terzi ad alto rischio o sanzionati', true, 12),
  risposta('q_cripto_professionale', 'attivita_cripto', 'Attività in cripto-attività: trading professionale, mining o staking', ['trading_professionale', 'mining_staking'], 3),
  risposta('q_cripto_servizi', 'attivita_cripto', 'Attività in cripto-attività: prestazione di servizi (exchange, custodia, OTC)', ['servizi_cripto'], 8),
  risposta('q_patrimonio_2', 'provenienza_patrimonio', 'Provenienza del patrimonio: eredità, investimenti o vendita di immobili', ['eredita', 'investimenti', 'vendita_immobili'], 2, PERSONE),
  risposta('q_patrimonio_altro', 'provenienza_patrimonio', 'Provenienza del patrimonio: altro', ['altro'], 4, PERSONE),
  risposta('q_settore_altro', 'settore', 'Settore di attività: altro', ['altro'], 2, IMPRESE),
  risposta('q_settore_4', 'settore', 'Settore di attività: edilizia o terzo settore', ['edilizia', 'terzo_settore'], 4, IMPRESE),
  risposta('q_settore_5', 'settore', 'Settore di attività: immobiliare o servizi finanziari e di pagamento', ['immobiliare', 'servizi_finanziari'], 5, IMPRESE),
  risposta('q_settore_8', 'settore', 'Settore di attività: cripto-attività, oro e preziosi, gioco, armi e difesa', ['servizi_cripto', 'oro_preziosi', 'gioco', 'armi_difesa'], 8, IMPRESE),
];

/**
 * Default thresholds, calibrated to the rules above: the onboarding model's boundaries stay
 * (under 20 basso, 40 and above alto) and its medium band splits at 30, so a PEP alone
 * (30 points) lands on medio_alto, the floor its rule sets anyway.
 */
export const DEFAULT_THRESHOLDS: SogliaDefault[] = [
  { classe: 'basso', punteggio_min: 0, livello_cdd: 'semplificata', revisione_mesi: 60, approvazione: 'analyst', descrizione: 'Rischio basso: adeguata verifica semplificata, revisione ogni 5 anni.' },
  { classe: 'medio', punteggio_min: 20, livello_cdd: 'ordinaria', revisione_mesi: 36, approvazione: 'analyst', descrizione: 'Rischio medio: adeguata verifica ordinaria, revisione ogni 3 anni.' },
  { classe: 'medio_alto', punteggio_min: 30, livello_cdd: 'ordinaria', revisione_mesi: 24, approvazione: 'co', descrizione: 'Rischio medio-alto: adeguata verifica ordinaria, revisione ogni 2 anni, decide il responsabile antiriciclaggio.' },
  { classe: 'alto', punteggio_min: 40, livello_cdd: 'rafforzata', revisione_mesi: 12, approvazione: 'co_four_eyes', descrizione: 'Rischio alto: adeguata verifica rafforzata, revisione annuale, due approvazioni.' },
];
