import type { Knex } from 'knex';
import { z } from 'zod';
import { withTenant } from '../../db/tenant';

export interface CddReviewRow {
  id: string;
  cod_azienda: string;
  cod_anagrafe: string;
  motivo: string;
  classe_rischio: string | null;
  due_at: Date;
  stato: string;
  workflow_id: string;
}

/** One periodic review of the tenant; another tenant's (row-level security) or a malformed id is not found. */
export async function findCddReview(db: Knex, codAzienda: string, id: string): Promise<CddReviewRow | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  return withTenant(db, { codAzienda }, (trx) => trx('cdd_reviews').where({ id })
    .first('id', 'cod_azienda', 'cod_anagrafe', 'motivo', 'classe_rischio', 'due_at', 'stato', 'workflow_id'));
}
