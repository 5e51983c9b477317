/**
 * Word classes that carry little identifying power in names. They still take part in the
 * alignment (so "VTB BANK JSC" and "VTB BANK" stay close) but weigh little in the score.
 */
export type TokenKind = 'name' | 'legal' | 'title' | 'particle' | 'generic' | 'stop' | 'suffix';

/** Multi-word legal forms folded to one token before classification (longest first). */
export const LEGAL_PHRASES: [string, string][] = [
  ['obshchestvo s ogranichennoy otvetstvennostyu', 'ooo'],
  ['obshchestvo s ogranichennoi otvetstvennostiu', 'ooo'],
  ['obschestvo s ogranichennoy otvetstvennostyu', 'ooo'],
  ['obshestvo s ogranichennoi otvetstvennostiu', 'ooo'],
  ['tovarystvo z obmezhenoiu vidpovidalnistiu', 'tov'],
  ['publichnoe aktsionernoe obshchestvo', 'pao'],
  ['zakrytoe aktsionernoe obshchestvo', 'zao'],
  ['otkrytoe aktsionernoe obshchestvo', 'oao'],
  ['aktsionernoe obshchestvo', 'ao'],
  ['aktsionerne tovarystvo', 'at'],
  ['public joint stock company', 'pjsc'],
  ['closed joint stock company', 'cjsc'],
  ['open joint stock company', 'ojsc'],
  ['joint stock company', 'jsc'],
  ['limited liability company', 'llc'],
  ['limited liability partnership', 'llp'],
  ['public limited company', 'plc'],
  ['private limited company', 'ltd'],
  ['societe anonyme', 'sa'],
  ['sociedad anonima', 'sa'],
  ['societa per azioni', 'spa'],
  ['societa a responsabilita limitata', 'srl'],
  ['sociedad de responsabilidad limitada', 'srl'],
  ['gesellschaft mit beschrankter haftung', 'gmbh'],
  ['sociedad anonima de capital variable', 'sadecv'],
  ['sa de cv', 'sadecv'],
  ['s de rl de cv', 'srldecv'],
  ['company limited', 'ltd'],
  ['co ltd', 'ltd'],
  ['pte ltd', 'ltd'],
  ['pvt ltd', 'ltd'],
  ['private limited', 'ltd'],
];

/** Single-token spellings that mean the same thing. */
export const SYNONYMS: Record<string, string> = {
  limited: 'ltd', corporation: 'corp', incorporated: 'inc', company: 'co', companies: 'co',
  junior: 'jr', senior: 'sr', saint: 'st', mount: 'mt', brothers: 'bros', international: 'intl',
  establishment: 'est', organisation: 'organization',
};

const LEGAL = new Set([
  'ltd', 'llc', 'llp', 'lp', 'plc', 'inc', 'corp', 'co', 'jsc', 'pjsc', 'ojsc', 'cjsc', 'ooo', 'zao', 'oao', 'pao', 'ao',
  'tov', 'at', 'pat', 'prat', 'sa', 'sas', 'sarl', 'spa', 'srl', 'sl', 'slu', 'sadecv', 'srldecv', 'cv', 'de', 'gmbh', 'ag', 'kg',
  'ohg', 'ug', 'bv', 'nv', 'ab', 'as', 'asa', 'oy', 'oyj', 'aps', 'kft', 'zrt', 'sro', 'doo', 'dd', 'ad', 'eood', 'ood',
  'fzco', 'fze', 'fzc', 'fzllc', 'wll', 'pte', 'pvt', 'bhd', 'sdn', 'tbk', 'pt', 'cia', 'ltda', 'eirl', 'sac', 'saa', 'ca',
  'kk', 'jv', 'est', 'pllc', 'lda', 'unitary', 'enterprise', 'fsue', 'fgup', 'gup', 'mup', 'up', 'ip', 'ie', 'ek', 'sp', 'zoo',
]);

const TITLES = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady', 'sheikh', 'shaykh', 'shaikh', 'sheik', 'haji', 'hajji',
  'mullah', 'mulla', 'maulana', 'mawlawi', 'mawlavi', 'maulvi', 'qari', 'imam', 'emir', 'amir', 'gen', 'general', 'col', 'colonel',
  'maj', 'major', 'capt', 'captain', 'lt', 'brig', 'brigadier', 'admiral', 'adm', 'sgt', 'rev', 'reverend', 'father', 'hon',
  'engineer', 'eng', 'eng.', 'ustadh', 'ustad', 'syed', 'sayyid', 'sayed', 'hafiz', 'mufti', 'commander', 'president', 'minister',
]);

/** Name-building particles: they matter for the reading of a name but not for identity. */
const PARTICLES = new Set([
  'al', 'el', 'ul', 'ud', 'ad', 'ar', 'as', 'ash', 'at', 'az', 'an', 'bin', 'ibn', 'bint', 'ben', 'bent', 'abu', 'abou', 'umm',
  'de', 'da', 'do', 'dos', 'das', 'del', 'della', 'di', 'du', 'der', 'den', 'van', 'von', 'la', 'le', 'lo', 'y', 'e', 'mac', 'mc',
  'ould', 'ag', 'oglu', 'ogly', 'kyzy', 'uulu',
]);

/** Business words present in thousands of company names. */
const GENERIC = new Set([
  'intl', 'trading', 'trade', 'group', 'holding', 'holdings', 'general', 'services', 'service', 'industries', 'industry',
  'industrial', 'enterprises', 'import', 'export', 'global', 'investment', 'investments', 'bank', 'national', 'commercial',
  'company', 'corporation', 'development', 'management', 'technology', 'technologies', 'systems', 'solutions', 'logistics',
  'shipping', 'oil', 'gas', 'petroleum', 'energy', 'construction', 'engineering', 'financial', 'finance', 'capital',
  'partners', 'associates', 'consulting', 'agency', 'center', 'centre', 'foundation', 'association', 'organization',
  'institute', 'society', 'union', 'network', 'media', 'marine', 'maritime', 'airlines', 'air', 'lines', 'line', 'transport',
  'exchange', 'fund', 'limited', 'state', 'federal', 'republic', 'ministry', 'office', 'department', 'factory', 'plant',
  'firm', 'house', 'world', 'wide', 'new', 'first', 'united', 'joint', 'stock', 'public', 'private', 'closed', 'open',
]);

const STOP = new Set(['the', 'of', 'and', 'for', 'in', 'on', 'at', 'to', 'a', 'an', 'et', 'und', 'fur', 'des', 'les', 'los', 'las', 'payment', 'ref']);

const SUFFIX = new Set(['jr', 'sr', 'ii', 'iii', 'iv', '2nd', '3rd']);

/** Very frequent given and family names worldwide: a match on them alone says little. */
export const COMMON_NAMES = new Set([
  'mohammad', 'mohammed', 'muhammad', 'mohamed', 'muhammed', 'mohamad', 'mohd', 'ahmad', 'ahmed', 'ali', 'hassan', 'hasan',
  'hussein', 'husain', 'hussain', 'husayn', 'abdul', 'abd', 'abdullah', 'abdallah', 'omar', 'umar', 'khan', 'mahmoud',
  'mahmood', 'mahmud', 'ibrahim', 'ismail', 'yusuf', 'youssef', 'khalid', 'khaled', 'said', 'saeed', 'salem', 'saleh',
  'john', 'james', 'robert', 'michael', 'william', 'david', 'richard', 'joseph', 'thomas', 'charles', 'mary', 'maria',
  'jose', 'juan', 'carlos', 'luis', 'jorge', 'pedro', 'ana', 'garcia', 'rodriguez', 'martinez', 'hernandez', 'lopez',
  'gonzalez', 'perez', 'sanchez', 'ramirez', 'torres', 'smith', 'johnson', 'williams', 'brown', 'jones', 'miller',
  'wang', 'li', 'zhang', 'liu', 'chen', 'yang', 'huang', 'zhao', 'wu', 'zhou', 'kim', 'lee', 'park', 'choi', 'nguyen',
  'ivan', 'ivanov', 'sergey', 'sergei', 'alexander', 'aleksandr', 'alexandr', 'vladimir', 'dmitry', 'andrey', 'alexey',
  'aleksey', 'mikhail', 'nikolay', 'yuri', 'olga', 'elena', 'tatiana', 'natalia', 'irina', 'singh', 'kumar', 'mohammadi',
  'rahman', 'rahim', 'aziz', 'karim', 'jamal', 'nasser', 'nasir', 'hamid', 'rashid', 'tariq', 'yasin', 'musa', 'isa',
  'jan', 'gul', 'shah', 'mir',
]);

export function canonicalToken(t: string): string {
  return SYNONYMS[t] ?? t;
}

export function tokenKind(t: string, isOrg: boolean): TokenKind {
  if (STOP.has(t)) return 'stop';
  if (SUFFIX.has(t)) return 'suffix';
  if (LEGAL.has(t) && (isOrg || t.length > 2)) return 'legal';
  if (TITLES.has(t)) return 'title';
  if (PARTICLES.has(t)) return 'particle';
  if (isOrg && GENERIC.has(t)) return 'generic';
  return 'name';
}

/** Base weight of a token in the score; distinctive name parts count fully. */
export const KIND_WEIGHT: Record<TokenKind, number> = {
  name: 1, generic: 0.45, particle: 0.3, legal: 0.15, title: 0.1, suffix: 0.1, stop: 0.05,
};

export const COMMON_NAME_WEIGHT = 0.55;

/** Patronymics (-ovich, -ovna, -ich ...) are often absent from a query: they weigh less on the list side. */
export function isPatronymic(t: string): boolean {
  return t.length > 6 && /(ovich|evich|ovych|evych|ovitch|ovna|evna|ivna|ichna|yevich|yevna|oglu|ogly|kyzy|ovic)$/.test(t);
}
