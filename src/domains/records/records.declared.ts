/**
 * The customer's declared profile: what it said it would do, which monitoring compares its
 * movements with. The record holds the expected monthly volume in euro
 * (`volume_mensile_atteso_eur`) and the expected cash use (`uso_contanti_atteso`); the onboarding
 * and KYC questionnaires ask a yearly band (`volume_annuo`) and whether the funds come in a
 * relevant measure from cash (`contanti`). This module is the one place that turns one into the
 * other (docs/records.md, "The declared profile").
 */

import type { UsoContanti } from './records.vocabulary';

/**
 * The questionnaires' yearly bands read as their ceiling in euro (the most the customer said it
 * would move; "over 1M" reads as 1M). The risk engine's `dichiarato.volume_annuo_eur` reads them
 * the same way, through this table.
 */
export const VOLUME_ANNUO_BANDS: Readonly<Record<string, number>> = {
  fino_10k: 10_000, '10k_50k': 50_000, '50k_250k': 250_000, '250k_1m': 1_000_000, oltre_1m: 1_000_000,
};

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
 * The record's declared fields from a questionnaire's answers:
 * - `volume_annuo` (band) -> `volume_mensile_atteso_eur` = the band's ceiling / 12, so that
 *   12 x the monthly figure is the yearly one the risk engine reads (to the cent);
 * - `contanti` (funds in a relevant measure from cash) -> `uso_contanti_atteso` `alto` when yes,
 *   `basso` when no: "not relevant" is not "none", so a customer is never read as having declared
 *   no cash at all unless someone recorded `nessuno` (on the record, the API or the import);
 * - `professione` (the KYC questionnaire's, persons and sole traders) -> `professione`.
 */
export function declaredFromAnswers(answers: Record<string, unknown>): DeclaredFields {
  const out: DeclaredFields = {};
  const yearly = yearlyVolumeOf(answers);
  if (yearly !== null) out.volume_mensile_atteso_eur = declaredVolumes({ mensile: null, annuo: yearly }).mensile!;
  const cash = yesNo(answers.contanti);
  if (cash !== null) out.uso_contanti_atteso = cash ? 'alto' : 'basso';
  if (typeof answers.professione === 'string' && answers.professione.trim()) out.professione = answers.professione.trim().slice(0, 200);
  return out;
}
