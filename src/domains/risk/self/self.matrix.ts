/**
 * The method of the yearly self-assessment (Banca d'Italia, "Disposizioni in materia di
 * organizzazione, procedure e controlli interni volti a prevenire l'utilizzo degli intermediari
 * a fini di riciclaggio e di finanziamento del terrorismo", 26 March 2019, Parte Settima):
 * inherent risk and vulnerability of the controls on four levels each, combined by a 4x4
 * matrix into the residual risk. Pure code: the pages, the export and the unit tests share it.
 * docs/risk-self-assessment.md explains every number here.
 */

/** 1 non significativo, 2 poco significativo, 3 abbastanza significativo, 4 molto significativo. */
export type Livello = 1 | 2 | 3 | 4;
export const LIVELLI: readonly Livello[] = [1, 2, 3, 4];
export type Residuo = 'basso' | 'medio' | 'medio_alto' | 'alto';
export const RESIDUI: readonly Residuo[] = ['basso', 'medio', 'medio_alto', 'alto'];

export const isLivello = (n: unknown): n is Livello => n === 1 || n === 2 || n === 3 || n === 4;

/**
 * The residual-risk matrix as the provisions' table writes it: rows are the inherent risk,
 * columns the vulnerability, both from "non significativo" (1) to "molto significativo" (4).
 * MATRICE_RESIDUO[inerente - 1][vulnerabilita - 1].
 */
export const MATRICE_RESIDUO: readonly (readonly Residuo[])[] = [
  /* inerente 1 non significativo */ ['basso', 'basso', 'medio', 'medio'],
  /* inerente 2 poco significativo */ ['basso', 'medio', 'medio', 'medio_alto'],
  /* inerente 3 abbastanza significativo */ ['medio', 'medio', 'medio_alto', 'alto'],
  /* inerente 4 molto significativo */ ['medio', 'medio_alto', 'alto', 'alto'],
];

export function residualRisk(inerente: Livello, vulnerabilita: Livello): Residuo {
  return MATRICE_RESIDUO[inerente - 1]![vulnerabilita - 1]!;
}

/** The residual classes as numbers (basso 1 ... alto 4): what the weighted overall averages. */
export const residuoValue = (r: Residuo): number => RESIDUI.indexOf(r) + 1;

/** A weighted average back to a class: the nearest class, a tie (x.5) going to the higher one (prudence). */
export const residuoOf = (score: number): Residuo => RESIDUI[Math.min(4, Math.max(1, Math.floor(score + 0.5))) - 1]!;

export interface LineaPesata { residuo: Residuo | null; peso: number }

/**
 * The overall residual risk of the exercise: the average of the lines' residual risks weighted
 * by their weights (only the lines already assessed count). Null when none is.
 */
export function overallResidual(linee: readonly LineaPesata[]): { punteggio: number; residuo: Residuo; pesoValutato: number; pesoTotale: number } | null {
  const pesoTotale = linee.reduce((s, l) => s + l.peso, 0);
  const done = linee.filter((l): l is { residuo: Residuo; peso: number } => l.residuo !== null && l.peso > 0);
  const peso = done.reduce((s, l) => s + l.peso, 0);
  if (!done.length || peso <= 0) return null;
  const punteggio = Math.round((done.reduce((s, l) => s + residuoValue(l.residuo) * l.peso, 0) / peso) * 100) / 100;
  return { punteggio, residuo: residuoOf(punteggio), pesoValutato: peso, pesoTotale };
}

/** The figures of one line from the portfolio (self.figures.ts computes them). */
export interface FigureLinea {
  clienti: number;
  /** Customers in class alto or medio_alto. */
  clienti_alto_rischio: number;
  pep: number;
  /** Customers resident in, or nationals of, a high-risk country (EU list, FATF black and grey lists). */
  paesi_alto_rischio: number;
  movimenti: number;
  volume_eur: number;
  contanti_eur: number;
}

/** A share as a level: below the first bound 1, below the second 2, below the third 3, otherwise 4. */
const levelOf = (share: number, bounds: readonly [number, number, number]): Livello =>
  (share < bounds[0] ? 1 : share < bounds[1] ? 2 : share < bounds[2] ? 3 : 4);

/** The bounds of each indicator (shares, 0..1); documented in docs/risk-self-assessment.md. */
export const SOGLIE_INERENTE = {
  quota_alto_rischio: [0.05, 0.15, 0.3],
  quota_contanti: [0.05, 0.2, 0.4],
  quota_pep_paesi: [0.01, 0.05, 0.1],
} as const satisfies Record<string, readonly [number, number, number]>;

export interface Suggerimento { livello: Livello; indicatori: { nome: string; valore: number | null; livello: Livello }[] }

const share = (n: number, d: number) => (d > 0 ? n / d : 0);

/**
 * The inherent risk the figures suggest: the average of four levels, the product's own risk
 * (the line's rischio_base) and one level per indicator of the portfolio (share of high and
 * medium-high risk customers, cash share of the volumes, share of PEPs and customers linked to
 * high-risk countries), rounded half up. A line without customers keeps its own risk.
 */
export function suggestedInherent(base: Livello, f: FigureLinea): Suggerimento {
  if (f.clienti === 0) return { livello: base, indicatori: [{ nome: 'rischio_base', valore: base, livello: base }] };
  const qAlto = share(f.clienti_alto_rischio, f.clienti);
  const qContanti = share(f.contanti_eur, f.volume_eur);
  const qPepPaesi = share(f.pep + f.paesi_alto_rischio, f.clienti);
  const indicatori = [
    { nome: 'rischio_base', valore: base as number, livello: base },
    { nome: 'quota_alto_rischio', valore: qAlto, livello: levelOf(qAlto, SOGLIE_INERENTE.quota_alto_rischio) },
    { nome: 'quota_contanti', valore: qContanti, livello: levelOf(qContanti, SOGLIE_INERENTE.quota_contanti) },
    { nome: 'quota_pep_paesi', valore: qPepPaesi, livello: levelOf(qPepPaesi, SOGLIE_INERENTE.quota_pep_paesi) },
  ];
  const avg = indicatori.reduce((s, i) => s + i.livello, 0) / indicatori.length;
  return { livello: Math.min(4, Math.max(1, Math.floor(avg + 0.5))) as Livello, indicatori };
}

export type Giudizio = 'adeguato' | 'parzialmente_adeguato' | 'inadeguato';
export type Esito = 'ok' | 'parzialmente' | 'ko';
export interface ControlloValutato { disegno: Giudizio; efficacia: Giudizio; ultimoEsito: Esito | null }

const GIUDIZIO_LIVELLO: Record<Giudizio, Livello> = { adeguato: 1, parzialmente_adeguato: 2, inadeguato: 4 };
const ESITO_LIVELLO: Record<Esito, Livello> = { ok: 1, parzialmente: 3, ko: 4 };

/**
 * The vulnerability one control leaves: the worst of its design, its declared effectiveness and
 * its last test (an untested control is "abbastanza significativo": nothing shows it works).
 */
export function controlVulnerability(c: ControlloValutato): Livello {
  const test: Livello = c.ultimoEsito ? ESITO_LIVELLO[c.ultimoEsito] : 3;
  return Math.max(GIUDIZIO_LIVELLO[c.disegno], GIUDIZIO_LIVELLO[c.efficacia], test) as Livello;
}

/**
 * The vulnerability the controls of a line suggest: the average of its controls' levels rounded
 * half up; a line without controls is "molto significativo".
 */
export function suggestedVulnerability(controlli: readonly ControlloValutato[]): Livello {
  if (!controlli.length) return 4;
  const avg = controlli.reduce((s, c) => s + controlVulnerability(c), 0) / controlli.length;
  return Math.min(4, Math.max(1, Math.floor(avg + 0.5))) as Livello;
}
