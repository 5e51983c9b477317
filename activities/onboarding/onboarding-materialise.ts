import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { getSetting } from '../../src/domains/admin';
import { appendAudit, type AuditAction } from '../../src/domains/audit';
import {
  addYears, customerFields, personFields, rapportoFields, REVIEW_YEARS_SETTING, todayInRome, type AnagrafeFields,
} from '../../src/domains/onboarding/onboarding.records';
import {
  createLegame, createOrMatchCustomer, createRapporto, declaredFromAnswers, getCustomer, TIPI_CONTROLLO, updateCustomer,
  type ClasseRischio, type CustomerFields, type CustomerPatch, type RapportoInput, type TipoControllo, type TipoLegame, type TipoSoggetto,
} from '../../src/domains/records';
import { cddAnswers, uboOwners } from '../../src/domains/onboarding/onboarding.validation';
import { openOnboardingVerification, workflowInputOf, type VerificationRow } from '../../src/domains/verifications';
import type { VerificationWorkflowInput } from '../../workflows/verification/verification.contract';
import { cddReviewWorkflowId } from '../../workflows/cdd/cdd-review.contract';
import type { OnboardingStep, SubjectType } from '../../workflows/onboarding/onboarding.contract';
import { screeningKey } from './onboarding-screening';
import { derivedUuid, lockCase, tx } from './onboarding.tx';

type Obj = Record<string, unknown>;
export interface Materialised {
  codAnagrafe: string; reviewId: string; reviewDueAt: string;
  /** The KYC/KYB verification this approval opened, whose workflow the onboarding workflow starts (absent in histories from before it). */
  verifica?: { workflowId: string; input: VerificationWorkflowInput } | null;
}

/**
 * Creates, in one transaction, what an approved case becomes (see onboarding.records.ts), through
 * the records area's commands: subjects matched or created, links, the relationship and its roles.
 * Idempotent: a case that already has its cod_anagrafe answers with what was made then.
 */
export async function materialiseCustomer(db: Knex, p: OnboardingStep & { firstApprover: string | null }): Promise<Materialised> {
  return tx(db, p, async (trx) => {
    const row = await lockCase(trx, p.caseId);
    if (row.cod_anagrafe) {
      const review = await trx('cdd_reviews').where({ cod_anagrafe: row.cod_anagrafe, motivo: 'prima_revisione' }).orderBy('created_at').first();
      const opened = await trx('verifiche').where({ onboarding_case_id: p.caseId }).first() as VerificationRow | undefined;
      return {
        codAnagrafe: row.cod_anagrafe as string, reviewId: review.id as string, reviewDueAt: new Date(review.due_at).toISOString(),
        verifica: opened ? { workflowId: opened.workflow_id, input: workflowInputOf(opened) } : null,
      };
    }
    const tipo = row.tipo_soggetto as SubjectType;
    const actor = p.actor.username;
    const classe = (row.risk_classe as string | null) ?? 'medio';
    const audit = (action: AuditAction, entityType: string, entityId: string, data: Obj) =>
      appendAudit(trx, { codAzienda: p.codAzienda, actor, action, entityType, entityId, data: { onboarding_case_id: p.caseId, transition_id: p.transitionId, ...data } });

    // One record per real person or company: a subject already in the registry (same verified
    // tax id) is matched, not created again (the records area's createOrMatchCustomer).
    // The customer (`risk`) also takes what the case declares for monitoring: the onboarding date and
    // the questionnaire's expected volume and cash use (records.declared.ts maps the answers).
    const answers = cddAnswers(row.cdd_answers);
    const subject = async (f: AnagrafeFields, risk: boolean) => {
      const fields: CustomerFields = {
        ...f, tipo_soggetto: f.tipo_soggetto as TipoSoggetto, onboarding_case_id: p.caseId,
        ...(risk ? {
          classe_rischio: classe as ClasseRischio, punteggio_rischio: (row.risk_score as number | null) ?? null,
          data_onboarding: todayInRome(), ...declaredFromAnswers(answers),
        } : {}),
      };
      const made = await createOrMatchCustomer(trx, p.codAzienda, actor, fields);
      // A customer already known takes the risk this onboarding assessed and what it declared now
      // (a new version of its record); its first onboarding date stays.
      if (!made.created && risk) {
        const known = await getCustomer(trx, made.codAnagrafe);
        const patch: CustomerPatch = {
          classe_rischio: fields.classe_rischio, punteggio_rischio: fields.punteggio_rischio, ...declaredFromAnswers(answers, known ?? {}),
          ...(f.professione ? { professione: f.professione } : {}), ...(known?.data_onboarding ? {} : { data_onboarding: fields.data_onboarding }),
        };
        await updateCustomer(trx, p.codAzienda, actor, made.codAnagrafe, patch);
      }
      return made.codAnagrafe;
    };
    const links = new Set<string>();
    const legame = async (da: string, a: string, tipo: TipoLegame, percentuale: number | null, tipoControllo: TipoControllo | null) => {
      // The same person listed twice in one role is one link; so is a link a known company already has.
      if (links.has(`${a}|${tipo}`)) return;
      links.add(`${a}|${tipo}`);
      if (await trx('legami').where({ cod_anagrafe_da: da, cod_anagrafe_a: a, tipo }).whereNull('al').first('id')) return;
      await createLegame(trx, p.codAzienda, actor, {
        cod_anagrafe_da: da, cod_anagrafe_a: a, tipo, percentuale, tipo_controllo: tipoControllo, dal: todayInRome(), fonte: 'onboarding',
      });
    };

    const anagrafe = (row.anagrafe ?? {}) as Obj;
    const customer = await subject(customerFields(tipo, anagrafe, row.email ?? null, !!row.pep), true);
    // Screening subjects of the case, by their placeholder key, move to the new codes.
    const relink = new Map<string, string>([[screeningKey(p.caseId, 'soggetto'), customer]]);
    // The relationship's roles besides the holder: the representative acts on it, the owners own it.
    const roles: RapportoInput['soggetti'] = [];
    const role = (cod: string, ruolo: 'esecutore' | 'titolare_effettivo') => {
      if (cod !== customer && !roles.some((r) => r.cod_anagrafe === cod && r.ruolo === ruolo)) roles.push({ cod_anagrafe: cod, ruolo });
    };

    let codRappresentante: string | null = null;
    if (tipo === 'societa') {
      // One record per natural person: the legal representative may also be an owner (same tax code,
      // matched here even when the code fails its check letter, which makes no registry key).
      const byTaxCode = new Map<string, string>();
      const personCode = async (x: Obj, ruolo: string) => {
        const cf = typeof x.codice_fiscale === 'string' ? x.codice_fiscale.trim().toUpperCase() : '';
        if (cf && byTaxCode.has(cf)) return byTaxCode.get(cf)!;
        const cod = await subject(personFields(x, ruolo), false);
        if (cf) byTaxCode.set(cf, cod);
        return cod;
      };
      const rep = await personCode((anagrafe.legale_rappresentante ?? {}) as Obj, 'legale_rappresentante');
      codRappresentante = rep;
      await legame(customer, rep, 'legale_rappresentante', null, null);
      role(rep, 'esecutore');
      relink.set(screeningKey(p.caseId, 'legale_rappresentante'), rep);
      for (const o of uboOwners(row.ubo)) {
        const cod = await personCode(o, 'titolare_effettivo');
        const pct = o.percentuale === undefined || o.percentuale === null || o.percentuale === '' ? null : Number(o.percentuale);
        const control = (TIPI_CONTROLLO as readonly string[]).includes(String(o.tipo_controllo)) ? o.tipo_controllo as TipoControllo : 'proprieta_diretta';
        await legame(customer, cod, 'titolare_effettivo', pct, control);
        role(cod, 'titolare_effettivo');
        if (o.id) relink.set(screeningKey(p.caseId, `ubo:${String(o.id)}`), cod);
      }
    }

    const r = rapportoFields(row.cdd_schema_version ?? null, tipo, answers);
    const { cod_rapporto } = await createRapporto(trx, p.codAzienda, actor, {
      cod_anagrafe: customer, tipo: r.tipo, data_apertura: todayInRome(), scopo: r.scopo, natura: r.natura, onboarding_case_id: p.caseId,
      fonte: 'onboarding', soggetti: roles,
    });

    const verified = await trx('onboarding_wallets').where({ case_id: p.caseId, stato: 'verified' }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    for (const w of verified) {
      const id = randomUUID();
      await trx('wallets').insert({
        id, cod_azienda: p.codAzienda, cod_anagrafe: customer, rete: w.rete, indirizzo: w.indirizzo, tipo: w.tipo, vasp_nome: w.vasp_nome,
        stato: 'attivo', prova: w.prova ? JSON.stringify(w.prova) : null, onboarding_wallet_id: w.id,
      });
      await audit('wallet.create', 'wallet', id, { cod_anagrafe: customer, rete: w.rete, tipo: w.tipo, onboarding_wallet_id: w.id });
    }

    const screeningLinked = await relinkScreening(trx, relink);

    const years = Number(await getSetting(trx, REVIEW_YEARS_SETTING[classe] ?? 'cdd.review_years_medium', p.codAzienda));
    const reviewId = randomUUID();
    const dueAt = addYears(new Date(), years);
    await trx('cdd_reviews').insert({
      id: reviewId, cod_azienda: p.codAzienda, cod_anagrafe: customer, motivo: 'prima_revisione', classe_rischio: classe, due_at: dueAt,
      stato: 'programmata', workflow_id: cddReviewWorkflowId(p.codAzienda, reviewId),
    });
    await audit('cdd_review.create', 'cdd_review', reviewId, { cod_anagrafe: customer, classe_rischio: classe, due_at: dueAt.toISOString(), anni: years });

    // The customer's KYC or KYB verification, with what the applicant gave (its workflow is started by the onboarding workflow).
    const uploads = await trx('onboarding_documents').where({ case_id: p.caseId }).orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('tipo', 'riferimento', 'nome_file', 'mime', 'dimensione', 'sha256');
    const verifica = await openOnboardingVerification(trx, {
      codAzienda: p.codAzienda, actor: p.actor, caseId: p.caseId, verificaId: derivedUuid(`${p.caseId}:verifica`), subjectType: tipo,
      codAnagrafe: customer, codRappresentante, anagrafe, titolari: uboOwners(row.ubo), uploads,
    });

    await trx('onboarding_cases').where({ id: p.caseId }).update({ cod_anagrafe: customer, updated_at: new Date() });
    await audit('onboarding.materialise', 'onboarding_case', p.caseId, {
      cod_anagrafe: customer, cod_rapporto, review_id: reviewId, first_approver: p.firstApprover, wallets: verified.length, screening_subjects: screeningLinked,
      ...(verifica ? { cod_verifica: verifica.input.codVerifica } : {}),
    });
    return { codAnagrafe: customer, reviewId, reviewDueAt: dueAt.toISOString(), verifica };
  });
}

/**
 * Binds the case's screening subjects to the new codes. A code already bound is left to its
 * subject: one person in two roles of this case, or a person the registry already knew (matched
 * by tax id) whose screening subject an earlier approval bound.
 */
async function relinkScreening(trx: Knex.Transaction, relink: Map<string, string>): Promise<number> {
  const taken = new Set<string>();
  for (const [key, cod] of relink) {
    const subject = await trx('screening_subjects').where({ cod_anagrafe: key }).first('id');
    if (!subject) continue;
    if (taken.has(cod) || await trx('screening_subjects').where({ cod_anagrafe: cod }).first('id')) {
      await trx('screening_subjects').where({ id: subject.id }).update({ cod_anagrafe: null, updated_at: new Date() });
      continue;
    }
    taken.add(cod);
    await trx('screening_subjects').where({ id: subject.id }).update({ cod_anagrafe: cod, updated_at: new Date() });
  }
  return taken.size;
}

