import type { Casuale } from './generator.random';

/**
 * The generator's vocabulary: names, occupations, economic sectors, counterparties, and account
 * numbers that have the shape (and the check digits) of real IBANs, so the rules read their country.
 */

export const NOMI_M = ['Marco', 'Luca', 'Giuseppe', 'Andrea', 'Francesco', 'Alessandro', 'Matteo', 'Lorenzo', 'Davide', 'Stefano', 'Paolo', 'Giovanni', 'Antonio', 'Roberto', 'Simone', 'Federico', 'Riccardo', 'Salvatore', 'Vincenzo', 'Emanuele', 'Nicola', 'Fabio', 'Massimo', 'Claudio', 'Pietro'];
export const NOMI_F = ['Giulia', 'Francesca', 'Chiara', 'Sara', 'Valentina', 'Alessandra', 'Elena', 'Martina', 'Laura', 'Silvia', 'Federica', 'Anna', 'Maria', 'Roberta', 'Paola', 'Elisa', 'Giorgia', 'Serena', 'Ilaria', 'Monica', 'Beatrice', 'Cristina', 'Daniela', 'Lucia', 'Teresa'];
export const COGNOMI = ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana', 'Santoro', 'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Galli', 'Martini', 'Leone', 'Longo', 'Gentile', 'Martinelli', 'Vitale', 'Lombardo', 'Serra', 'Coppola', 'De Santis', "D'Angelo", 'Marchetti', 'Parisi', 'Villa', 'Conte', 'Ferraro', 'Ferri', 'Fabbri', 'Bianco', 'Marini', 'Grasso', 'Valentini'];
/** Cadastral codes of birth places (Roma, Milano, Napoli, Torino, Palermo, Genova, Bologna, Firenze, Bari, Catania, Venezia, Verona, Messina, Padova, Trieste, Brescia, Parma, Taranto, Prato, Modena). */
export const COMUNI = ['H501', 'F205', 'F839', 'L219', 'G273', 'D969', 'A944', 'D612', 'A662', 'C351', 'L736', 'L781', 'F158', 'G224', 'L424', 'B157', 'G337', 'L049', 'G999', 'F257'];

export const PROFESSIONI_DIPENDENTE = ['impiegato', 'operaio', 'insegnante', 'infermiere', 'commesso', 'tecnico informatico', 'magazziniere', 'autista', 'funzionario pubblico', 'addetto alle vendite', 'cuoco', 'educatore'];
export const PROFESSIONISTI: readonly { professione: string; ateco: string }[] = [
  { professione: 'avvocato', ateco: '69.10' }, { professione: 'commercialista', ateco: '69.20' }, { professione: 'architetto', ateco: '71.11' },
  { professione: 'ingegnere', ateco: '71.12' }, { professione: 'medico', ateco: '86.21' }, { professione: 'dentista', ateco: '86.23' },
  { professione: 'fisioterapista', ateco: '86.90' }, { professione: 'consulente informatico', ateco: '62.02' }, { professione: 'grafico', ateco: '74.10' },
  { professione: 'idraulico', ateco: '43.22' }, { professione: 'elettricista', ateco: '43.21' },
];
export const NEGOZI_CONTANTI: readonly { attivita: string; ateco: string }[] = [
  { attivita: 'Alimentari', ateco: '47.11' }, { attivita: 'Bar', ateco: '56.30' }, { attivita: 'Ristorante', ateco: '56.10' },
  { attivita: 'Tabaccheria', ateco: '47.26' }, { attivita: 'Parrucchiere', ateco: '96.02' }, { attivita: 'Panificio', ateco: '10.71' },
  { attivita: 'Edicola', ateco: '47.62' }, { attivita: 'Pizzeria', ateco: '56.10' }, { attivita: 'Frutta e verdura', ateco: '47.21' },
];
export const STAGIONALI: readonly { attivita: string; ateco: string }[] = [
  { attivita: 'Albergo', ateco: '55.10' }, { attivita: 'Stabilimento balneare', ateco: '93.29' }, { attivita: 'Campeggio', ateco: '55.30' },
  { attivita: 'Gelateria', ateco: '56.10' }, { attivita: 'Noleggio imbarcazioni', ateco: '77.21' }, { attivita: 'Affittacamere', ateco: '55.20' },
];
export const DATORI: readonly { attivita: string; ateco: string }[] = [
  { attivita: 'Costruzioni', ateco: '41.20' }, { attivita: 'Meccanica', ateco: '25.62' }, { attivita: 'Software', ateco: '62.01' },
  { attivita: 'Trasporti', ateco: '49.41' }, { attivita: 'Pulizie', ateco: '81.21' }, { attivita: 'Logistica', ateco: '52.10' },
  { attivita: 'Arredamento', ateco: '31.09' }, { attivita: 'Alimentare', ateco: '10.89' }, { attivita: 'Consulenza', ateco: '70.22' },
  { attivita: 'Supermercati', ateco: '47.11' }, { attivita: 'Agricola', ateco: '01.13' }, { attivita: 'Tessile', ateco: '13.20' },
];
export const COMMERCIO_ESTERO: readonly { attivita: string; ateco: string }[] = [
  { attivita: 'Import export', ateco: '46.90' }, { attivita: 'Ingrosso elettronica', ateco: '46.52' }, { attivita: 'Ingrosso tessuti', ateco: '46.41' },
  { attivita: 'Ingrosso macchinari', ateco: '46.69' }, { attivita: 'Ingrosso vini', ateco: '46.34' },
];
export const FORME = ['S.r.l.', 'S.r.l.s.', 'S.p.A.', 'S.n.c.', 'S.a.s.'];
export const NOMI_AZIENDA = ['Alfa', 'Delta', 'Aurora', 'Meridiana', 'Vesuvio', 'Dolomiti', 'Adriatica', 'Tirrena', 'Fenice', 'Orizzonte', 'Stella', 'Quercia', 'Levante', 'Ponente', 'Arcobaleno', 'Nuova', 'Italica', 'Europa', 'Sole', 'Laguna', 'Colle', 'Borgo', 'Mare', 'Monte', 'Valle'];

export const NEGOZI_CARTA = ['Esselunga', 'Coop', 'Conad', 'Carrefour', 'Lidl', 'Eurospin', 'Amazon', 'Zalando', 'Farmacia', 'Ristorante', 'Trenitalia', 'Italo', 'Eni Station', 'Q8', 'IKEA', 'Decathlon', 'MediaWorld', 'Feltrinelli', 'Bar', 'Pizzeria', 'Cinema', 'Autostrade', 'Netflix', 'Spotify'];
export const UTENZE: readonly { nome: string; min: number; max: number }[] = [
  { nome: 'Enel Energia', min: 35, max: 160 }, { nome: 'Eni Plenitude Gas', min: 20, max: 190 }, { nome: 'TIM', min: 20, max: 45 },
  { nome: 'Vodafone', min: 8, max: 30 }, { nome: 'Acea Ato 2', min: 15, max: 70 }, { nome: 'Fastweb', min: 25, max: 35 },
];

/** Ordinary foreign countries (trade, holidays, family abroad), before the high-risk ones are removed. */
export const PAESI_ORDINARI = ['DE', 'FR', 'ES', 'AT', 'NL', 'BE', 'CH', 'GB', 'US', 'PT', 'GR', 'PL', 'RO', 'CN', 'TR', 'IN', 'JP', 'BR', 'SE', 'DK', 'IE', 'HR', 'SI', 'CZ', 'CA', 'AU', 'MA', 'EG', 'TN', 'AL', 'UA'];

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const digits = (rng: Casuale, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');

function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const v = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) r = (r * 10 + Number(d)) % 97;
  }
  return r;
}

/** An account number shaped like an IBAN of `paese` (ISO alpha-2), with valid check digits. */
export function iban(rng: Casuale, paese = 'IT'): string {
  const bban = paese === 'IT'
    ? `${letters[rng.int(0, 25)]}${digits(rng, 5)}${digits(rng, 5)}${digits(rng, 12)}`
    : `${digits(rng, 4)}${digits(rng, rng.int(10, 18))}`;
  const check = 98 - mod97(`${bban}${paese}00`);
  return `${paese}${String(check).padStart(2, '0')}${bban}`;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const chars = (rng: Casuale, alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[rng.int(0, alphabet.length - 1)]).join('');

/** A crypto address of the chain's shape (an exchange's deposit address, a tenant list's entry): not a real one. */
export function indirizzoCripto(rng: Casuale, chain: 'bitcoin' | 'ethereum' | 'tron'): string {
  if (chain === 'ethereum') return `0x${chars(rng, HEX, 40)}`;
  if (chain === 'tron') return `T${chars(rng, BASE58, 33)}`;
  return rng.chance(0.5) ? `bc1q${chars(rng, '023456789acdefghjklmnpqrstuvwxyz', 38)}` : `1${chars(rng, BASE58, 33)}`;
}

/** The chain and asset of a listed address: the sanctions data names the currency (XBT, ETH, USDT, TRX...). */
export function chainOf(asset: string, indirizzo: string): { chain: string; asset: string } {
  const a = asset.toUpperCase() === 'XBT' ? 'BTC' : asset.toUpperCase();
  if (/^0x[0-9a-fA-F]{40}$/.test(indirizzo)) return { chain: 'ethereum', asset: a };
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(indirizzo)) return { chain: 'tron', asset: a };
  const chains: Record<string, string> = { BTC: 'bitcoin', LTC: 'litecoin', BCH: 'bitcoin-cash', XMR: 'monero', ZEC: 'zcash', DASH: 'dash', BSV: 'bitcoin-sv', XRP: 'ripple', ETC: 'ethereum-classic', BTG: 'bitcoin-gold', XVG: 'verge', ARB: 'arbitrum', SOL: 'solana' };
  return { chain: chains[a] ?? a.toLowerCase(), asset: a };
}
