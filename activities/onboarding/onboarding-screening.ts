import type { Knex } from 'knex';
import { cddAnswers, uboOwners } from '../../src/domains/onboarding/onboarding.validation';
import { isKnownCddVersion } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { secondApprovalRequired } from '../../src/domains/onboarding/onboarding.four-eyes';
import { todayInRome } from '../../src/domains/records';
import { declaredVolume, emptyProfile, normaliseAnswers, normaliseCountries, scoreApplicant, type ProfiloRischio } from '../../src/domains/risk';
import { screenSubjects, screenWallet } from '../../src/domains/screening';
import type { ScreeningSubjectInput } from '../../workflows/screening/screening.contract';
import type { OnboardingStep, RiskResult, SubjectType } from '../../workflows/onboarding/onboarding.contract';
import { auditCase, json, lockCase, tx, type CaseRow } from './onboarding.tx';

/**
 * The submission's screening and risk score. Each screened person or entity of a case is
 * a screening subject whose cod_anagrafe is a placeholder bound to the case
 * (`onboarding:<case>:<role>`), so a second submission updates the same subjects instead of
 * adding new ones, erasure finds them, and approval relinks them to the new customer codes.
 */

export const screeningKey = (caseId: string, riferimento: string) => `onboarding:${caseId}:${riferimento}`;
export const screeningKeyPrefix = (caseId: string) => `onboarding:${caseId}:`;

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const personName = (p: Obj | undefined) => [str(p?.nome), str(p?.cognome)].filter(Boolean).join(' ');
const isYes = (v: unknown) => v === true || v === 'true' || v === 'si' || v === 'sì' || v === 'on';

export interface ScreenedSubject { riferimento: string; ruolo: string; input: ScreeningSubjectInput }

/** Who is screened for a case: the customer (and its trade name), the legal representative, every beneficial owner. */
export function subjectsOf(row: CaseRow): ScreenedSubject[] {
  const a = (row.anagrafe ?? {}) as Obj;
  const out: ScreenedSubject[] = [];
  const person = (riferimento: string, ruolo: string, p: Obj | undefined) => {
    const nome = personName(p);
    if (nome) out.push({ riferimento, ruolo, input: { nome, tipo: 'person', data_nascita: str(p?.data_nascita), nazionalita: str(p?.nazionalita), cod_anagrafe: screeningKey(row.id, riferimento) } });
  };
  const company = (riferimento: string, ruolo: string, nome: string | undefined, paese: string | undefined) => {
    if (nome) out.push({ riferimento, ruolo, input: { nome, tipo: 'company', nazionalita: paese, cod_anagrafe: screeningKey(row.id, riferimento) } });
  };
  const tipo = row.tipo_soggetto as SubjectType | null;
  if (tipo === 'societa') {
    company('soggetto', 'cliente', str(a.denominazione), str(a.paese_costituzione));
    person('legale_rappresentante', 'legale_rappresentante', a.legale_rappresentante as Obj | undefined);
    for (const u of uboOwners(row.ubo)) if (str(u.id)) person(`ubo:${String(u.id)}`, 'titolare_effettivo', u);
  } else {
    person('soggetto', 'cliente', a);
    if (tipo === 'ditta_individuale') company('ditta', 'ditta', str(a.denominazione), str((a.sede as Obj | undefined)?.paese));
  }
  return out;
}

/** A PEP declared for the customer, the legal representative or any beneficial owner. */
export function anyPep(row: CaseRow): boolean {
  const a = (row.anagrafe ?? {}) as Obj;
  return isYes(a.pep) || isYes((a.legale_rappresentante as Obj | undefined)?.pep) || uboOwners(row.ubo).some((u) => isYes(u.pep));
}

export async function screenCaseSubjects(db: Knex, p: OnboardingStep): Promise<{ matches: number; pep: boolean }> {
  const row = await tx(db, p, (trx) => lockCase(trx, p.caseId));
  const subjects = subjectsOf(row);
  const results = subjects.length ? await screenSubjects(db, p.codAzienda, p.actor.username, subjects.map((s) => s.input)) : [];
  return tx(db, p, async (trx) => {
    await lockCase(trx, p.caseId);
    const ids = results.map((r) => r.subject.id);
    const open = ids.length
      ? await trx('screening_matches').whereIn('subject_id', ids).whereNull('deleted_at').select('id', 'subject_id', 'list_name', 'entry_id', 'stato')
      : [];
    let matches = 0;
    const soggetti = subjects.map((s, i) => {
      const r = results[i]!;
      const counted = Math.max(0, r.hits.length - r.suppressed);
      matches += counted;
      const matchOf = (h: { list_name: string; entry_id: string }) =>
        open.find((m: Obj) => m.subject_id === r.subject.id && m.list_name === h.list_name && m.entry_id === h.entry_id) as Obj | undefined;
      return {
        riferimento: s.riferimento, ruolo: s.ruolo, nome: s.input.nome, tipo: s.input.tipo, subject_id: r.subject.id, matches: counted,
        hits: r.hits.map((h) => ({
          list_name: h.list_name, entry_id: h.entry_id, entry_name: h.entry_name, score: h.score, alert: h.alert,
          match_id: (matchOf(h)?.id as string | undefined) ?? null, match_stato: (matchOf(h)?.stato as string | undefined) ?? null,
        })),
      };
    });
    const pep = anyPep(row);
    const thresholds = results[0]?.thresholds ?? null;
    await trx('onboarding_cases').where({ id: p.caseId }).update({
      screening: trx.raw("coalesce(screening, '{}'::jsonb) || ?::jsonb", [json({ soggetti, matches, thresholds, screened_at: new Date().toISOString() })]),
      pep, updated_at: new Date(),
    });
    await auditCase(trx, p, 'screen', { subjects: soggetti.length, matches, subject_ids: ids });
    return { matches, pep };
  });
}

export async function screenCaseWallets(db: Knex, p: OnboardingStep): Promise<{ hits: number }> {
  const wallets = await tx(db, p, async (trx) => {
    await lockCase(trx, p.caseId);
    return trx('onboarding_wallets').where({ case_id: p.caseId }).whereNot('stato', 'revoked').orderBy([{ column: 'created_at' }, { column: 'id' }]);
  }) as Obj[];
  const checked: { w: Obj; r: Awaited<ReturnType<typeof screenWallet>> }[] = [];
  for (const w of wallets) checked.push({ w, r: await screenWallet(db, String(w.indirizzo)) });
  return tx(db, p, async (trx) => {
    await lockCase(trx, p.caseId);
    const at = new Date().toISOString();
    const views = [];
    for (const { w, r } of checked) {
      const screening = { hit: r.hit, entries: r.entries.map((e) => ({ list_name: e.list_name, entry_id: e.entry_id, name: e.name, programs: e.programs })), screened_at: at };
      await trx('onboarding_wallets').where({ id: w.id }).update({ screening: json(screening), updated_at: new Date() });
      views.push({ wallet_id: w.id, rete: w.rete, indirizzo: w.indirizzo, ...screening });
    }
    const hits = views.filter((v) => v.hit).length;
    await trx('onboarding_cases').where({ id: p.caseId }).update({
      screening: trx.raw("coalesce(screening, '{}'::jsonb) || ?::jsonb", [json({ wallets: views, wallet_hits: hits })]), updated_at: new Date(),
    });
    await auditCase(trx, p, 'screen-wallets', { wallets: views.length, hits, hit_wallet_ids: views.filter((v) => v.hit).map((v) => v.wallet_id) });
    return { hits };
  });
}

/**
 * The applicant's risk profile from the stored case (people's countries, PEP, stored screening,
 * wallets, channel, questionnaire): the same shape the risk engine builds for a customer, so
 * the tenant's rule set scores both alike.
 */
export function applicantProfile(row: CaseRow, wallets: Obj[]): ProfiloRischio {
  const a = (row.anagrafe ?? {}) as Obj;
  const rep = (a.legale_rappresentante ?? {}) as Obj;
  const owners = uboOwners(row.ubo);
  const operativita = normaliseCountries((Array.isArray(row.countries) ? row.countries : []).map((c: Obj) => c?.paese));
  const own = [a.nazionalita, a.paese_residenza, (a.residenza as Obj | undefined)?.paese, (a.sede as Obj | undefined)?.paese, a.paese_costituzione];
  const collegati = normaliseCountries([rep.nazionalita, ...owners.flatMap((o) => [o.nazionalita, o.paese_residenza])]);
  const s = (row.screening ?? {}) as Obj;
  const soggetti = Array.isArray(s.soggetti) ? (s.soggetti as Obj[]) : [];
  const live = wallets.filter((w) => w.stato !== 'revoked');
  // Answers given under an unknown questionnaire version are not read: their meaning is unknown.
  const questionario = isKnownCddVersion(row.cdd_schema_version) ? normaliseAnswers(cddAnswers(row.cdd_answers)) : {};
  const tipo = (row.tipo_soggetto ?? null) as SubjectType | null;
  const p = emptyProfile();
  p.cliente = { ...p.cliente, tipo_soggetto: tipo, pep: isYes(a.pep), pep_collegati: anyPep(row), attivita: str(a.attivita) ?? null, settore: str(questionario.settore) ?? null };
  p.geografia = {
    ...p.geografia,
    nazionalita: normaliseCountries([a.nazionalita])[0] ?? null,
    paese_residenza: normaliseCountries(own.slice(1))[0] ?? null,
    paesi_operativita: operativita, paesi_collegati: collegati,
    paesi: normaliseCountries([...own, ...operativita, ...collegati]),
  };
  p.prodotto = {
    ...p.prodotto,
    wallet_self_hosted: live.filter((w) => w.tipo === 'self_hosted').length,
    wallet_sanzionati: live.filter((w) => (w.screening as Obj | null)?.hit === true).length,
    crypto: live.length > 0,
  };
  p.canale = { canale: row.canale === 'sportello' ? 'sportello' : 'online', intermediario: false };
  p.screening = { corrispondenze_aperte: soggetti.reduce((n, x) => n + (Number(x.matches) || 0), 0), corrispondenze_confermate: 0 };
  p.titolari = { numero: owners.length, pep: owners.some((o) => isYes(o.pep)) };
  p.dichiarato = { volume_annuo_eur: declaredVolume(questionario, live.map((w) => (w.volume_annuo_eur == null ? null : Number(w.volume_annuo_eur)))) };
  p.questionario = questionario;
  return p;
}

/** The case's score by the tenant's active rule set (the risk area's engine), in the shape the onboarding pages read. */
export async function scoreCaseRisk(db: Knex, p: OnboardingStep): Promise<RiskResult> {
  return tx(db, p, async (trx) => {
    const row = await lockCase(trx, p.caseId);
    const wallets = await trx('onboarding_wallets').where({ case_id: p.caseId });
    const profilo = applicantProfile(row, wallets);
    const scored = await scoreApplicant(trx, p.codAzienda, profilo, todayInRome());
    const facts = { pep: profilo.cliente.pep_collegati, screeningMatches: profilo.screening.corrispondenze_aperte, walletHits: profilo.prodotto.wallet_sanzionati };
    const risk: RiskResult = {
      score: scored.score, classe: scored.classe, fattori: scored.fattori, ...facts,
      secondApprovalRequired: secondApprovalRequired({ classe: scored.classe, ...facts }), modello: scored.modello,
    };
    await trx('onboarding_cases').where({ id: p.caseId }).update({
      risk: json({ ...risk, versione_id: scored.punteggio.versione.id, pavimento: scored.punteggio.pavimento, calcolato_at: new Date().toISOString() }),
      risk_score: risk.score, risk_classe: risk.classe, pep: risk.pep, updated_at: new Date(),
    });
    await auditCase(trx, p, 'risk', { score: risk.score, classe: risk.classe, modello: risk.modello, second_approval_required: risk.secondApprovalRequired });
    return risk;
  });
}
