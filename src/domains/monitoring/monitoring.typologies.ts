/**
 * The typologies monitoring detects (issue 23, "Rules as data"): a rule and each alert it raises
 * name one. The typology templates (engine/, docs/monitoring.md) use these codes; an alert made by
 * hand picks one too. Codes are stored, the labels are what people read.
 */
export const TIPOLOGIE = [
  'strutturazione_contanti', 'contanti_oltre_soglia', 'picco_velocita', 'picco_volume', 'paesi_alto_rischio', 'importi_tondi',
  'transito_rapido', 'fan_in', 'fan_out', 'riattivazione_dormiente', 'incoerenza_profilo_volume', 'incoerenza_profilo_contanti',
  'crypto_indirizzi_sanzionati', 'crypto_liste_interne', 'altro',
] as const;
export type Tipologia = (typeof TIPOLOGIE)[number];

export const TIPOLOGIA_LABELS: Record<Tipologia, string> = {
  strutturazione_contanti: 'Frazionamento di contanti sotto soglia',
  contanti_oltre_soglia: 'Contanti oltre la soglia mensile',
  picco_velocita: 'Aumento improvviso del numero di operazioni',
  picco_volume: 'Aumento improvviso dei volumi rispetto allo storico',
  paesi_alto_rischio: 'Paesi ad alto rischio',
  importi_tondi: 'Importi tondi ricorrenti',
  transito_rapido: 'Entrate e uscite rapide (conto di transito)',
  fan_in: 'Molte controparti in entrata',
  fan_out: 'Molte controparti in uscita',
  riattivazione_dormiente: 'Rapporto o cliente inattivo riattivato',
  incoerenza_profilo_volume: 'Volumi incoerenti con il profilo dichiarato',
  incoerenza_profilo_contanti: 'Contanti incoerenti con il profilo dichiarato',
  crypto_indirizzi_sanzionati: 'Esposizione a indirizzi crypto sanzionati',
  crypto_liste_interne: 'Esposizione a indirizzi delle liste interne',
  altro: 'Altra anomalia',
};

export const isTipologia = (v: unknown): v is Tipologia => typeof v === 'string' && (TIPOLOGIE as readonly string[]).includes(v);
