import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { nextCode } from './records.codes';
import { todayInRome } from './records.dates';
import { assertSubjects, fieldError } from './records.references';
import { Rapporto } from './rapporto.model';
import type { Fonte, RuoloRapporto } from './records.vocabulary';

/** A relationship to open: its first holder (intestatario) and the other subjects with their roles. */
export interface RapportoInput {
  cod_anagrafe: string;
  tipo: string;
  stato?: 'attivo' | 'sospeso' | 'chiuso';
  data_apertura?: string;
  data_chiusura?: string | null;
  scopo?: string | null;
  natura?: string | null;
  onboarding_case_id?: string | null;
  fonte?: Fonte;
  soggetti?: { cod_anagrafe: string; ruolo: Exclude<RuoloRapporto, 'intestatario'> | 'intestatario' }[];
}

/**
 * Opens a relationship with its roles: the holder as intestatario, then each other subject with
 * its role (co-holder, executor, delegate, beneficial owner), each from the opening date.
 */
export async function createRapporto(trx: Knex.Transaction, codAzienda: string, actor: string, input: RapportoInput): Promise<Rapporto> {
  const apertura = input.data_apertura ?? todayInRome();
  const stato = input.stato ?? 'attivo';
  if (input.data_chiusura && input.data_chiusura < apertura) throw fieldError('data_chiusura', 'La data di chiusura non può precedere quella di apertura');
  if (stato === 'chiuso' && !input.data_chiusura) throw fieldError('data_chiusura', 'Indica la data di chiusura di un rapporto chiuso');
  const roles = [{ cod_anagrafe: input.cod_anagrafe, ruolo: 'intestatario' as const }, ...(input.soggetti ?? [])];
  const seen = new Set<string>();
  roles.forEach((r, i) => {
    const key = `${r.cod_anagrafe}|${r.ruolo}`;
    if (seen.has(key)) throw fieldError(i === 0 ? 'cod_anagrafe' : `soggetti.${i - 1}.ruolo`, 'Il soggetto ha già questo ruolo sul rapporto');
    seen.add(key);
  });
  await assertSubjects(trx, codAzienda, Object.fromEntries(roles.map((r, i) => [i === 0 ? 'cod_anagrafe' : `soggetti.${i - 1}.cod_anagrafe`, r.cod_anagrafe])));

  const cod = await nextCode(trx, codAzienda, 'RAP');
  const fonte = input.fonte ?? 'manuale';
  await trx('rapporti').insert({
    cod_azienda: codAzienda, cod_rapporto: cod, cod_anagrafe: input.cod_anagrafe, tipo: input.tipo, stato, data_apertura: apertura,
    data_chiusura: input.data_chiusura ?? null, scopo: input.scopo ?? null, natura: input.natura ?? null,
    onboarding_case_id: input.onboarding_case_id ?? null, created_by: actor,
  });
  await appendAudit(trx, {
    codAzienda, actor, action: 'rapporto.create', entityType: 'rapporto', entityId: cod,
    data: { cod_rapporto: cod, cod_anagrafe: input.cod_anagrafe, tipo: input.tipo, ...(input.onboarding_case_id ? { onboarding_case_id: input.onboarding_case_id } : {}) },
  });
  for (const r of roles) {
    const id = randomUUID();
    await trx('rapporti_soggetti').insert({
      id, cod_azienda: codAzienda, cod_rapporto: cod, cod_anagrafe: r.cod_anagrafe, ruolo: r.ruolo, dal: apertura,
      al: input.data_chiusura ?? null, fonte, created_by: actor,
    });
    await appendAudit(trx, {
      codAzienda, actor, action: 'rapporto.soggetto', entityType: 'rapporto', entityId: cod,
      data: { cod_rapporto: cod, cod_anagrafe: r.cod_anagrafe, ruolo: r.ruolo, id },
    });
  }
  return (await Rapporto.of(trx).findById([codAzienda, cod]).withGraphFetched('ruoli'))!;
}
