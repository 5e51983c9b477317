/**
 * The customer's declared profile: what it said it would do, which monitoring compares its
 * movements with. The record holds the expected monthly volume in euro
 * (`volume_mensile_atteso_eur`) and the expected cash use (`uso_contanti_atteso`); the onboarding
 * and KYC questionnaires ask a yearly band (`volume_annuo`) and whether the funds come in a
 * relevant measure from cash (`contanti`). This module is the one place that turns one into the
 * other (docs/records.md, "The declared profile").
 */

import type { UsoContanti } from './records.vocabulary';

/** The questionnaires' yearly bands (`volume_annuo`), in euro: from (excluded, but for the first) to (included). */
const BANDS: Readonly<Record<string, { from: number; to: number | null }>> = {
  fino_10k: { from: 0, to: 10_000 }, '10k_50k': { from: 10_000, to: 50_000 }, '50k_250k': { from: 50_000, to: 250_000 },
  '250k_1m': { from: 250_000, to: 1_000_000 }, oltre_1m: { from: 1_000_000, to: null },
};

/**
 * The bands read as their ceiling in euro (the most the customer said it would move; "over 1M",
 * which has none, reads as 1M). The risk engine's `dichiarato.volume_annuo_eur` reads them the
 * same way, through this table.
 */
export const VOLUME_ANNUO_BANDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(BANDS).map(([k, b]) => [k, b.to ?? b.from]));

/** Does a yearly volume fall in the band? */
const inBand = (band: string, yearly: number) => {
  const b = BANDS[band];
  return !!b && (yearly > b.from || (b.from === 0 && yearly >= 0)) && (b.to === null || yearly <= b.to);
};

/** The largest declared monthly volume taken (as the largest movement): a thousand billion euro. */
export const MAX_VOLUME_EUR = 1_000_000_000_000;

const cents = (v: number) => Math.round(v * 100) / 100;

/**
 * The declared volumes, monthly and yearly, from what was declared: where only one is declared
 * the other is derived (yearly = 12 x monthly, monthly = yearly / 12, in cents); where both are,
 * each is read as declared.
 */
export function declaredVolumes(p: { mensile: number | null; annuo: number | null }): { mensile: number | null; annuo: number | null } {
  const ok = (v: number | null) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
  const mensile = ok(p.mensile);
  const annuo = ok(p.annuo);
  return {
    mensile: mensile ?? (annuo === null ? null : cents(annuo / 12)),
    annuo: annuo ?? (mensile === null ? null : cents(mensile * 12)),
  };
}

/** The yearly volume a questionnaire's answers declare (the band's ceiling), or null. */
export function yearlyVolumeOf(answers: Record<string, unknown>): number | null {
  const band = answers.volume_annuo;
  return typeof band === 'string' && Object.hasOwn(VOLUME_ANNUO_BANDS, band) ? VOLUME_ANNUO_BANDS[band]! : null;
}

const YES = new Set(['true', 'si', 'sì', 'on', '1']);
const NO = new Set(['false', 'no', 'off', '0']);
const yesNo = (v: unknown): boolean | null => {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  return YES.has(s) ? true : NO.has(s) ? false : null;
};

/** What a questionnaire's answers set on the record (only what they answer). */
export interface DeclaredFields {
  volume_mensile_atteso_eur?: number;
  uso_contanti_atteso?: UsoContanti;
  professione?: string;
}

/**
 * The record's declared fields from a questionnaire's answers, given what the record holds now:
 * - `volume_annuo` (band) -> `volume_mensile_atteso_eur` = the band's ceiling / 12, so that
 *   12 x the monthly figure is the yearly one the risk engine reads (to the cent); a monthly
 *   figure already recorded whose twelve months fall in the band is kept (it is more precise);
 * - `contanti` (funds in a relevant measure from cash) -> `uso_contanti_atteso` `alto` when yes,
 *   `basso` when no: "not relevant" is not "none", so a customer is never read as having declared
 *   no cash at all unless someone recorded `nessuno` (on the record, the API or the import); a
 *   recorded level that agrees with the answer (yes: medio or alto; no: nessuno or basso) is kept;
 * - `professione` (the KYC questionnaire's, persons and sole traders) -> `professione`.
 */
export function declaredFromAnswers(
  answers: Record<string, unknown>, current: { volume_mensile_atteso_eur?: number | null; uso_contanti_atteso?: string | null } = {},
): DeclaredFields {
  const out: DeclaredFields = {};
  const yearly = yearlyVolumeOf(answers);
  const monthly = current.volume_mensile_atteso_eur;
  const keepMonthly = typeof monthly === 'number' && inBand(String(answers.volume_annuo), monthly * 12);
  if (yearly !== null && !keepMonthly) out.volume_mensile_atteso_eur = declaredVolumes({ mensile: null, annuo: yearly }).mensile!;
  const cash = yesNo(answers.contanti);
  const agrees = (level: string | null | undefined) => (cash ? level === 'medio' || level === 'alto' : level === 'nessuno' || level === 'basso');
  if (cash !== null && !agrees(current.uso_contanti_atteso)) out.uso_contanti_atteso = cash ? 'alto' : 'basso';
  if (typeof answers.professione === 'string' && answers.professione.trim()) out.professione = answers.professione.trim().slice(0, 200);
  return out;
}
