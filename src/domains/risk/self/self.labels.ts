import type { Livello, Residuo } from './self.matrix';

/** The Italian words of the self-assessment pages (one dictionary for the area's part). */
export const LIVELLO_LABELS: Record<Livello, string> = {
  1: 'Non significativo', 2: 'Poco significativo', 3: 'Abbastanza significativo', 4: 'Molto significativo',
};
/** Vulnerability is feminine in the provisions' wording ("vulnerabilità non significativa"). */
export const VULNERABILITA_LABELS: Record<Livello, string> = {
  1: 'Non significativa', 2: 'Poco significativa', 3: 'Abbastanza significativa', 4: 'Molto significativa',
};
export const RESIDUO_LABELS: Record<Residuo, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
export const RESIDUO_TONES: Record<Residuo, string> = { basso: 'green', medio: 'yellow', medio_alto: 'orange', alto: 'red' };
export const STATO_LABELS: Record<string, string> = { bozza: 'Bozza', in_approvazione: 'In approvazione', approvata: 'Approvata' };
export const STATO_TONES: Record<string, string> = { bozza: 'secondary', in_approvazione: 'blue', approvata: 'green' };
export const AZIONE_LABELS: Record<string, string> = { modifica: 'Modifica', invia: 'Invia in approvazione', approva: 'Approva', respingi: 'Respingi' };
export const GIUDIZIO_LABELS: Record<string, string> = { adeguato: 'Adeguato', parzialmente_adeguato: 'Parzialmente adeguato', inadeguato: 'Inadeguato' };
export const ESITO_LABELS: Record<string, string> = { ok: 'Positivo', parzialmente: 'Parzialmente positivo', ko: 'Negativo' };
export const ESITO_TONES: Record<string, string> = { ok: 'green', parzialmente: 'orange', ko: 'red' };
export const FREQUENZA_LABELS: Record<string, string> = {
  continua: 'Continua', giornaliera: 'Giornaliera', settimanale: 'Settimanale', mensile: 'Mensile', trimestrale: 'Trimestrale', semestrale: 'Semestrale', annuale: 'Annuale',
};
export const CALCOLO_LABELS: Record<string, string> = {
  quota_clienti_alto_rischio: 'Quota di clienti in classe alta o medio-alta',
  revisioni_cdd_scadute: 'Revisioni periodiche di adeguata verifica scadute',
  pratiche_cdd_scadute: 'Pratiche di adeguata verifica aperte oltre la scadenza',
  quota_clienti_pep: 'Quota di clienti PEP',
  quota_clienti_paesi_alto_rischio: 'Quota di clienti legati a paesi ad alto rischio',
  quota_contanti: 'Quota del contante sui movimenti degli ultimi 12 mesi',
  manuale: 'Valore inserito a mano',
};
export const UNITA_LABELS: Record<string, string> = { percentuale: '%', numero: 'n.' };
/** RAF status against the levels: within appetite, over appetite, over tolerance, over capacity. */
export const RAF_STATO_LABELS: Record<string, string> = { entro: 'Entro la propensione', oltre_appetito: 'Oltre la propensione', oltre_tolleranza: 'Oltre la tolleranza', oltre_capacita: 'Oltre la capacità', nd: 'Non disponibile' };
export const RAF_STATO_TONES: Record<string, string> = { entro: 'green', oltre_appetito: 'yellow', oltre_tolleranza: 'orange', oltre_capacita: 'red', nd: 'secondary' };
export const KRI_STATO_LABELS: Record<string, string> = { verde: 'Verde', ambra: 'Ambra', rosso: 'Rosso', nd: 'Non disponibile' };
export const KRI_STATO_TONES: Record<string, string> = { verde: 'green', ambra: 'orange', rosso: 'red', nd: 'secondary' };
export const INDICATORE_LABELS: Record<string, string> = {
  rischio_base: 'Rischio proprio del prodotto', quota_alto_rischio: 'Clienti in classe alta o medio-alta', quota_contanti: 'Quota del contante', quota_pep_paesi: 'PEP e clienti legati a paesi ad alto rischio',
};
export const TIPO_SOGGETTO_LABELS: Record<string, string> = { persona_fisica: 'Persona fisica', ditta_individuale: 'Ditta individuale', societa: 'Società' };

/** What a refused step says on the page (and in the problem's detail). */
export const REJECTION_MESSAGES: Record<string, string> = {
  FOUR_EYES_REQUIRED: 'Principio dei quattro occhi: l\'autovalutazione deve essere approvata da un responsabile antiriciclaggio diverso da chi l\'ha redatta o inviata',
  FROZEN: 'L\'autovalutazione è approvata: i suoi dati sono congelati e non si possono modificare',
  INCOMPLETE: 'Completa rischio inerente e vulnerabilità di ogni linea prima di inviare in approvazione',
};
