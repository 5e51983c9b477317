import { DEFAULT_HISTORY_DAYS, DEFAULT_PASSTHROUGH_DAYS } from './condition.keys';
import type { Aggregato, Condizione, Operatore, Valore } from './condition.types';

/**
 * A condition as an Italian sentence, shown next to each rule ("Il cliente è PEP e la quota di
 * contanti negli ultimi 365 giorni supera il 30%"). Fields read as their label when the caller
 * passes one (`etichette`: path → "il cliente è PEP"-style noun phrase), as their path otherwise;
 * named lists likewise (`liste`: name → label). Pure: the risk pages and monitoring pass their catalogues.
 */
export interface DescribeOptions {
  etichette?: Readonly<Record<string, string>>;
  liste?: Readonly<Record<string, string>>;
  /** What ratio_declared compares with: the yearly declared volume (risk, default) or the monthly one (monitoring). */
  volumeDichiarato?: 'annuo' | 'mensile';
}

const number = (n: number) => new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 }).format(n);
/** With its article, as Italian says it: "il 30%", "l'80%", "l'11%". */
const percent = (n: number) => {
  const text = `${new Intl.NumberFormat('it-IT', { maximumFractionDigits: 1 }).format(n * 100)}%`;
  const whole = text.split(/[,%]/)[0]!;
  return `${whole.startsWith('8') || whole === '1' || whole === '11' ? "l'" : 'il '}${text}`;
};
const euro = (n: number) => `${new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 }).format(n)} €`;

function listName(name: string, o: DescribeOptions) { return `la lista «${o.liste?.[name] ?? name}»`; }

function literal(v: Valore | undefined, o: DescribeOptions, fmt: (n: number) => string = number): string {
  if (v === undefined || v === null) return 'nessun valore';
  if (typeof v === 'boolean') return v ? 'sì' : 'no';
  if (typeof v === 'number') return fmt(v);
  if (typeof v === 'string') return `«${v}»`;
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'number' ? fmt(x) : `«${x}»`)).join(', ');
  if (typeof v === 'object' && 'lista' in v) return listName(v.lista, o);
  return String(v);
}

function comparison(subject: string, op: Operatore, v: Valore | undefined, o: DescribeOptions, fmt?: (n: number) => string): string {
  const val = () => literal(v, o, fmt);
  const isList = typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (op) {
    case 'eq': return typeof v === 'boolean' ? `${subject}: ${v ? 'sì' : 'no'}` : `${subject} è ${val()}`;
    case 'ne': return typeof v === 'boolean' ? `${subject}: ${v ? 'no' : 'sì'}` : `${subject} è diverso da ${val()}`;
    case 'gt': return `${subject} supera ${val()}`;
    case 'gte': return `${subject} è almeno ${val()}`;
    case 'lt': return `${subject} è inferiore a ${val()}`;
    case 'lte': return `${subject} è al massimo ${val()}`;
    case 'between': {
      const [lo, hi] = Array.isArray(v) ? v : [];
      return `${subject} è compreso tra ${literal(lo, o, fmt)} e ${literal(hi, o, fmt)}`;
    }
    case 'in': return isList ? `${subject} è nel${val()}` : `${subject} è uno tra ${val()}`;
    case 'not_in': return isList ? `${subject} non è nel${val()}` : `${subject} non è tra ${val()}`;
    case 'intersects': return isList ? `${subject} comprende almeno un elemento del${val()}` : `${subject} comprende almeno uno tra ${val()}`;
    case 'exists': return `${subject} è indicato`;
    case 'not_exists': return `${subject} non è indicato`;
  }
}

/** "dei movimenti in entrata, in contanti, con controparti nei paesi della lista «X»" */
function movementsPhrase(a: Aggregato, o: DescribeOptions): string {
  const parts = ['movimenti'];
  if (a.segno) parts.push(a.segno === 'entrata' ? 'in entrata' : 'in uscita');
  if (a.contanti !== undefined) parts.push(a.contanti ? 'in contanti' : 'non in contanti');
  if (a.paesi_controparte) {
    const p = a.paesi_controparte;
    parts.push('lista' in p ? `con controparti nei paesi del${listName(p.lista, o)}` : `con controparti in ${p.map((c) => c.toUpperCase()).join(', ')}`);
  }
  const codes = (what: string, p: readonly string[] | { lista: string }) => ('lista' in p ? `con ${what} nel${listName(p.lista, o)}` : `con ${what} ${p.map((c) => `«${c}»`).join(', ')}`);
  if (a.causali) parts.push(codes('causale', a.causali));
  if (a.canali) parts.push(codes('canale', a.canali));
  if (a.importo_min !== undefined && a.importo_max !== undefined) parts.push(`di importo tra ${euro(a.importo_min)} e ${euro(a.importo_max)}`);
  else if (a.importo_min !== undefined) parts.push(`di almeno ${euro(a.importo_min)}`);
  else if (a.importo_max !== undefined) parts.push(`di al massimo ${euro(a.importo_max)}`);
  if (a.tondi !== undefined) parts.push(a.tondi ? 'di importo tondo' : 'di importo non tondo');
  if (a.livello === 'rapporto') parts.push('del rapporto');
  return parts.join(' ');
}

const window = (days: number) => (days === 1 ? "nell'ultimo giorno" : `negli ultimi ${number(days)} giorni`);

function aggregateSubject(a: Aggregato, o: DescribeOptions): { subject: string; fmt?: (n: number) => string } {
  const m = movementsPhrase(a, o);
  const w = window(a.finestra_giorni);
  switch (a.fn) {
    case 'count': return { subject: `il numero di ${m} ${w}` };
    case 'sum': return { subject: `il totale dei ${m} ${w}`, fmt: euro };
    case 'cash_share': return { subject: `la quota di contanti ${a.segno || a.paesi_controparte ? `dei ${m} ` : ''}${w}`, fmt: percent };
    case 'distinct_counterparties': return { subject: `il numero di controparti distinte dei ${m} ${w}` };
    case 'distinct_countries': return { subject: `il numero di paesi di controparte distinti dei ${m} ${w}` };
    case 'ratio_history':
      return { subject: `${a.misura === 'numero' ? 'il numero' : 'il totale'} dei ${m} ${w} rispetto alla media dello stesso periodo nei ${number(a.storico_giorni ?? DEFAULT_HISTORY_DAYS)} giorni precedenti (volte)` };
    case 'ratio_declared': return o.volumeDichiarato === 'mensile'
      ? { subject: `il totale dei ${m} ${w}, riportato a 30 giorni, rispetto al volume mensile dichiarato (volte)` }
      : { subject: `il totale annualizzato dei ${m} ${w} rispetto al volume annuo dichiarato (volte)` };
    case 'avg': return { subject: `l'importo medio dei ${m} ${w}`, fmt: euro };
    case 'max': return { subject: `l'importo più alto dei ${m} ${w}`, fmt: euro };
    case 'distinct_new_counterparties':
      return { subject: `il numero di controparti nuove (mai viste nei ${number(a.storico_giorni ?? DEFAULT_HISTORY_DAYS)} giorni precedenti) dei ${m} ${w}` };
    case 'days_since_previous': return { subject: `i giorni trascorsi dal movimento precedente tra i ${m} ${w}` };
    case 'passthrough_share':
      return { subject: `la quota delle entrate ${w} uscita di nuovo entro ${number(a.entro_giorni ?? DEFAULT_PASSTHROUGH_DAYS)} giorni (${m})`, fmt: percent };
    case 'peer_ratio':
      return { subject: `${a.misura === 'numero' ? 'il numero' : 'il totale'} dei ${m} ${w} rispetto alla mediana dei clienti simili (volte)` };
    case 'ratio_last_year':
      return { subject: `${a.misura === 'numero' ? 'il numero' : 'il totale'} dei ${m} ${w} rispetto ${a.storico_giorni && a.storico_giorni > a.finestra_giorni
        ? `alla media dello stesso periodo nei ${number(a.storico_giorni)} giorni attorno agli stessi giorni di un anno prima` : 'agli stessi giorni di un anno prima'} (volte)` };
  }
}

const isGroup = (c: Condizione) => 'tutti' in c || 'almeno_uno' in c;

function sentence(c: Condizione, o: DescribeOptions): string {
  const part = (x: Condizione) => (isGroup(x) ? `(${sentence(x, o)})` : sentence(x, o));
  if ('tutti' in c) return c.tutti.map(part).join(' e ');
  if ('almeno_uno' in c) return c.almeno_uno.map(part).join(' oppure ');
  if ('non' in c) return `non è vero che ${part(c.non)}`;
  if ('aggregato' in c) {
    const { subject, fmt } = aggregateSubject(c.aggregato, o);
    return comparison(subject, c.op, c.valore, o, fmt);
  }
  return comparison(o.etichette?.[c.campo] ?? c.campo, c.op, c.valore, o);
}

export function describeCondition(c: Condizione, options: DescribeOptions = {}): string {
  const s = sentence(c, options);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** An aggregate as a noun phrase ("il totale dei movimenti in contanti negli ultimi 30 giorni"): how a decision's trace names what a rule read. */
export function describeAggregate(a: Aggregato, options: DescribeOptions = {}): string {
  return aggregateSubject(a, options).subject;
}
