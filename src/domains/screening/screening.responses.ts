import { listResponse } from '../../kit/list';
import { z } from 'zod';

/** Response shapes of the screening API, as the client reads them (timestamps as ISO strings). */

const when = z.string();
const record = z.record(z.string(), z.unknown());
const thresholds = z.object({ review: z.number(), match: z.number() });

const hit = z.object({ list_name: z.string(), entry_id: z.string(), entry_name: z.string(), schema: z.string(), score: z.number(), alert: z.boolean(), breakdown: record });
export const subjectScreeningResponse = z.object({
  subject: z.object({ id: z.string(), cod_anagrafe: z.string().nullable(), tipo: z.string(), nome: z.string(), data_nascita: z.string().nullable(), nazionalita: z.string().nullable() }),
  hits: z.array(hit),
  matches_created: z.array(z.object({ id: z.string(), list_name: z.string(), entry_id: z.string(), score: z.number() })),
  suppressed: z.number(),
  thresholds,
});

export const walletScreeningResponse = z.object({
  address: z.string(), hit: z.boolean(),
  entries: z.array(z.object({ list_name: z.string(), entry_id: z.string(), name: z.string(), schema: z.string(), programs: z.array(z.string()), currencies: z.array(z.string()) })),
});

export const batchInlineResponse = z.object({ mode: z.literal('inline'), results: z.array(subjectScreeningResponse) });
export const batchStartedResponse = z.object({ mode: z.literal('workflow'), batch_id: z.string(), total: z.number(), workflow_id: z.string(), workflow_url: z.string() });
export const batchProgressResponse = z.object({ batch_id: z.string(), workflow_id: z.string(), workflow_url: z.string() }).catchall(z.unknown());

const match = z.object({
  id: z.string(), cod_azienda: z.string(), subject_id: z.string(), list_name: z.string(), entry_id: z.string(), entry_hash: z.string(), score: z.number(),
  breakdown: record, stato: z.string(), assegnatario: z.string().nullable(), esito_richiesto: z.string().nullable(), resolution_reason: z.string().nullable(),
  resolution_requested_by: z.string().nullable(), resolved_by: z.string().nullable(), resolved_at: when.nullable(), import_run_id: z.string().nullable(), created_at: when, updated_at: when,
});
export const matchListResponse = listResponse(match.extend({ subject_nome: z.string(), subject_tipo: z.string(), cod_anagrafe: z.string().nullable() }));
export const matchDetailResponse = match.extend({
  subject: record, entry: record.nullable(),
  // seq is null until the sealer chains the event (moments after its commit).
  audit: z.array(z.object({ seq: z.number().nullable(), action: z.string(), actor: z.string(), occurred_at: when, data: record })),
  four_eyes: z.boolean(), allowed_actions: z.array(z.string()),
});

const importRun = z.object({
  id: z.string(), workflow_id: z.string(), workflow_url: z.string(), trigger: z.string(), status: z.string(), progress: record,
  lists_total: z.number(), lists_done: z.number(), added: z.number(), modified: z.number(), removed: z.number(), matches_created: z.number(),
  requested_by: z.string().nullable(), error: z.string().nullable(), started_at: when, finished_at: when.nullable(),
});
export const importStartedResponse = z.object({ run_id: z.string(), workflow_id: z.string(), workflow_url: z.string(), status_url: z.string() });
const rescreenTenant = z.object({
  run_id: z.string(), cod_azienda: z.string(), workflow_id: z.string(), workflow_url: z.string(), status: z.enum(['pending', 'running', 'completed', 'failed']),
  subjects_total: z.number(), subjects_done: z.number(), pages_done: z.number(), matches_created: z.number(), error: z.string().nullable(),
  started_at: when.nullable(), updated_at: when, finished_at: when.nullable(),
});
/** The re-screen after the import, per tenant (a tenant's staff see their own tenant only). */
const rescreen = z.object({
  tenants: z.array(rescreenTenant), tenants_total: z.number(), tenants_done: z.number(),
  subjects_total: z.number(), subjects_done: z.number(), matches_created: z.number(),
});
export const importStatusResponse = z.object({ run: importRun.nullable(), rescreen: rescreen.nullable() });
export const importHistoryResponse = listResponse(importRun);

export const dashboardResponse = z.object({
  by_state: z.record(z.string(), z.number()),
  by_list: z.array(z.object({ list_name: z.string(), count: z.number() })),
  last_import: importRun.omit({ workflow_url: true }).nullable(),
  lists: z.array(z.object({ list_name: z.string(), id: z.number(), entry_count: z.number(), imported_at: when })),
});
