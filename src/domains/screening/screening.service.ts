import type { Knex } from 'knex';
import { withTenant } from '../../db/tenant';
import type { ScreeningSubjectInput } from '../../../workflows/screening/screening.contract';
import { hitView, readThresholds, screenSubject, toQuery, upsertSubject } from './screening.engine';
import { getScreener } from './screening.store';
import { canonicalWalletAddress } from './lib/importers/crypto';

/** Screening subjects on demand (API, inline batches, the batch workflow's activity). */

export interface SubjectScreening {
  subject: { id: string; cod_anagrafe: string | null; tipo: string; nome: string; data_nascita: string | null; nazionalita: string | null };
  hits: ReturnType<typeof hitView>[];
  matches_created: { id: string; list_name: string; entry_id: string; score: number }[];
  suppressed: number;
  thresholds: { review: number; match: number };
}

/** Creates or updates each subject and screens it, all in one tenant transaction. */
export async function screenSubjects(db: Knex, codAzienda: string, actor: string, inputs: ScreeningSubjectInput[]): Promise<SubjectScreening[]> {
  const screener = await getScreener(db);
  return withTenant(db, { codAzienda, actor }, async (trx) => {
    const thresholds = await readThresholds(trx, codAzienda);
    const out: SubjectScreening[] = [];
    for (const input of inputs) {
      const subject = await upsertSubject(trx, codAzienda, input, actor);
      const r = await screenSubject(trx, { codAzienda, subject, screener, thresholds, actor });
      out.push({
        subject: { id: subject.id, cod_anagrafe: subject.cod_anagrafe, tipo: subject.tipo, nome: subject.nome, data_nascita: subject.data_nascita, nazionalita: subject.nazionalita },
        hits: r.hits.map((h) => hitView(h, thresholds)), matches_created: r.created, suppressed: r.suppressed, thresholds,
      });
    }
    return out;
  });
}

/**
 * Brings a registry subject's screening row in line with its record (a changed name, date of
 * birth or nationality), in the caller's transaction: the row can never disagree with a committed
 * record, whatever happens to the screening run after it. Its wallets stay as they are.
 */
export async function syncRegistrySubject(
  trx: Knex.Transaction, codAzienda: string, actor: string, input: Omit<ScreeningSubjectInput, 'wallets'> & { cod_anagrafe: string },
): Promise<{ id: string }> {
  const existing = await trx('screening_subjects').where({ cod_anagrafe: input.cod_anagrafe }).first('wallets');
  const row = await upsertSubject(trx, codAzienda, { ...input, wallets: (existing?.wallets as string[] | undefined) ?? [] }, actor);
  return { id: row.id };
}

/** Screens the subject already stored under a cod_anagrafe, or undefined when there is none. */
export async function screenStoredSubject(db: Knex, codAzienda: string, actor: string, codAnagrafe: string): Promise<SubjectScreening | undefined> {
  const screener = await getScreener(db);
  return withTenant(db, { codAzienda, actor }, async (trx) => {
    const subject = await trx('screening_subjects').where({ cod_anagrafe: codAnagrafe }).first();
    if (!subject) return undefined;
    const thresholds = await readThresholds(trx, codAzienda);
    const r = await screenSubject(trx, { codAzienda, subject, screener, thresholds, actor });
    return {
      subject: { id: subject.id, cod_anagrafe: subject.cod_anagrafe, tipo: subject.tipo, nome: subject.nome, data_nascita: subject.data_nascita, nazionalita: subject.nazionalita },
      hits: r.hits.map((h) => hitView(h, thresholds)), matches_created: r.created, suppressed: r.suppressed, thresholds,
    };
  });
}

/** Wallet lookup: exact, ETH lower-cased, base58 / bech32 as written (the library's canonical form). */
export async function screenWallet(db: Knex, address: string) {
  const screener = await getScreener(db);
  const entries = screener.screenWallet(address);
  return {
    address, hit: entries.length > 0,
    entries: entries.map((e) => ({
      list_name: e.list, entry_id: e.id, name: e.name, schema: e.schema, programs: e.programs,
      currencies: e.cryptoAddresses.filter((w) => canonicalWalletAddress(w.address) === canonicalWalletAddress(address)).map((w) => w.currency),
    })),
  };
}

/** A name checked without recording it: no subject, no match (a counterparty the tenant does not onboard). */
export interface NameCheckInput { tipo: 'person' | 'company'; nome: string; data_nascita?: string | null; nazionalita?: string | null }

/**
 * Screens names against the current lists with the tenant's thresholds and records nothing: the
 * caller keeps the result with its own record (a travel-rule transfer's counterparties). Hits at
 * or above the review threshold come back, each with `alert` at the match threshold.
 */
export async function checkNames(db: Knex, codAzienda: string, inputs: NameCheckInput[]) {
  const screener = await getScreener(db);
  const thresholds = await withTenant(db, { codAzienda }, (trx) => readThresholds(trx, codAzienda));
  return {
    thresholds,
    results: inputs.map((input) => ({
      input,
      hits: screener.screen(toQuery({ ...input, data_nascita: input.data_nascita ?? null, nazionalita: input.nazionalita ?? null, wallets: [] }), { reviewThreshold: thresholds.review })
        .map((h) => hitView(h, thresholds)),
    })),
  };
}
