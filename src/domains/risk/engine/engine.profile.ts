import { declaredVolumes, yearlyVolumeOf } from '../../records';
import type { ProfiloRischio } from '../risk.types';

/** The shape every profile starts from: nothing known, nothing risky (the evaluate API fills a partial profile from it). */
export function emptyProfile(): ProfiloRischio {
  return {
    cliente: { cod_anagrafe: null, tipo_soggetto: null, pep: false, pep_collegati: false, attivita: null, settore: null, eta_anni: null, anzianita_giorni: null },
    geografia: { nazionalita: null, paese_residenza: null, paese_fiscale: null, paesi_operativita: [], paesi_collegati: [], paesi: [], paesi_controparti: [] },
    prodotto: { tipi_rapporto: [], rapporti_attivi: 0, wallet_self_hosted: 0, wallet_sanzionati: 0, crypto: false },
    canale: { canale: null, intermediario: false },
    screening: { corrispondenze_aperte: 0, corrispondenze_confermate: 0 },
    titolari: { numero: 0, pep: false },
    dichiarato: { volume_annuo_eur: null },
    questionario: {},
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fills a partial profile (the evaluate API's body) section by section over the empty one. */
export function completeProfile(partial: { [K in keyof ProfiloRischio]?: Partial<ProfiloRischio[K]> } = {}): ProfiloRischio {
  const base = emptyProfile() as unknown as Record<string, Obj>;
  const out: Record<string, Obj> = {};
  for (const k of Object.keys(base)) {
    const given = (partial as Record<string, unknown>)[k];
    out[k] = { ...base[k], ...(isObj(given) ? given : {}) };
  }
  const p = out as unknown as ProfiloRischio;
  if (!p.geografia.paesi.length) p.geografia.paesi = countries([p.geografia.nazionalita, p.geografia.paese_residenza, p.geografia.paese_fiscale, ...p.geografia.paesi_operativita, ...p.geografia.paesi_collegati]);
  return p;
}

/** Country codes upper case, deduplicated, without blanks. */
export function countries(xs: readonly unknown[]): string[] {
  return [...new Set(xs.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().toUpperCase()))];
}

const YES: Record<string, boolean> = { true: true, on: true, '1': true, si: true, 'sì': true, false: false, off: false, '0': false, no: false };

/**
 * Questionnaire answers as the rules compare them: yes/no answers given as text ('si', 'on')
 * become booleans, so one rule `questionario.contanti eq true` reads both sources alike.
 */
export function normaliseAnswers(answers: unknown): Record<string, unknown> {
  if (!isObj(answers)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(answers)) {
    out[k] = typeof v === 'string' && Object.hasOwn(YES, v.trim().toLowerCase()) && !/^\d+$/.test(v.trim()) ? YES[v.trim().toLowerCase()] : v;
  }
  return out;
}

/**
 * The declared yearly volume (`dichiarato.volume_annuo_eur`), by the records area's rule
 * (records.declared.ts, docs/records.md "The declared profile"): the questionnaire's band read as
 * its ceiling (the band "over 1M" as 1M) when answered; else 12 x the monthly volume the customer's
 * record declares (`anagrafe.volume_mensile_atteso_eur`); else the wallets' declared yearly volumes.
 */
export function declaredVolume(answers: Record<string, unknown>, walletVolumes: readonly (number | null)[] = [], monthly: number | null = null): number | null {
  const yearly = declaredVolumes({ mensile: monthly, annuo: yearlyVolumeOf(answers) }).annuo;
  if (yearly !== null) return yearly;
  const wallets = walletVolumes.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return wallets.length ? wallets.reduce((s, v) => s + v, 0) : null;
}
