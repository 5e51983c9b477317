import type { OperatorService } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Every process record is findable in the Temporal Web UI by these. */
export const CodAzienda = defineSearchAttributeKey('CodAzienda', SearchAttributeType.KEYWORD);
export const RecordType = defineSearchAttributeKey('RecordType', SearchAttributeType.KEYWORD);
export const RecordId = defineSearchAttributeKey('RecordId', SearchAttributeType.KEYWORD);
export const RecordStatus = defineSearchAttributeKey('RecordStatus', SearchAttributeType.KEYWORD);
/** When a scheduled record (a periodic review) falls due: `DueAt < "2027-01-01T00:00:00Z"` in the Web UI. */
export const DueAt = defineSearchAttributeKey('DueAt', SearchAttributeType.DATETIME);

export type SearchAttributeKind = 'Keyword' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime';

export const searchAttributeDefinitions: Record<string, SearchAttributeKind> = {
  CodAzienda: 'Keyword',
  RecordType: 'Keyword',
  RecordId: 'Keyword',
  RecordStatus: 'Keyword',
  DueAt: 'Datetime',
};

/** temporal.api.enums.v1.IndexedValueType, as the operator API speaks it. */
const INDEXED_VALUE_TYPE: Record<SearchAttributeKind, number> = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6 };
const KIND_OF = new Map(Object.entries(INDEXED_VALUE_TYPE).map(([kind, n]) => [n, kind]));

/** The definitions in the operator API's terms (also for the time-skipping test server, which cannot list). */
export const indexedSearchAttributes = (): Record<string, number> =>
  Object.fromEntries(Object.entries(searchAttributeDefinitions).map(([name, kind]) => [name, INDEXED_VALUE_TYPE[kind]]));

/**
 * The attributes a record's workflow starts with, so it is findable in the Web UI from its
 * first event. Platform records (list imports) have no tenant.
 */
export function recordSearchAttributes(r: { codAzienda?: string | null; recordType: string; recordId: string; status: string }) {
  return [
    ...(r.codAzienda ? [{ key: CodAzienda, value: r.codAzienda }] : []),
    { key: RecordType, value: r.recordType },
    { key: RecordId, value: r.recordId },
    { key: RecordStatus, value: r.status },
  ];
}

/** A namespace the platform cannot run on as it is: the message says what to do. */
export class SearchAttributeSetupError extends Error {
  override readonly name = 'SearchAttributeSetupError';
}

// gRPC status codes (@grpc/grpc-js `status`) that mean "this caller may not manage search attributes here".
const GRPC_PERMISSION_DENIED = 7;
const GRPC_UNIMPLEMENTED = 12;
const GRPC_UNAUTHENTICATED = 16;
const grpcCode = (err: unknown) => (typeof (err as { code?: unknown })?.code === 'number' ? (err as { code: number }).code : undefined);
const refused = (err: unknown) => [GRPC_PERMISSION_DENIED, GRPC_UNIMPLEMENTED, GRPC_UNAUTHENTICATED].includes(grpcCode(err) ?? -1);

const describe = (names: string[]) => names.map((n) => `${n} (${searchAttributeDefinitions[n]})`).join(', ');

/** What an operator of Temporal Cloud (where API keys cannot add search attributes) runs once. */
export function cloudInstructions(namespace: string, names: string[]): string {
  const flags = names.map((n) => `--sa "${n}=${searchAttributeDefinitions[n]}"`).join(' ');
  return `On Temporal Cloud add them once with tcld (\`tcld namespace search-attributes add -n ${namespace} ${flags}\`) `
    + 'or in the Cloud UI (Namespaces → the namespace → Search Attributes), then start again.';
}

export interface EnsureOptions {
  /** How long to wait for newly added attributes to be listed (the frontend caches them). */
  settleMs?: number;
}

async function listCustom(operator: OperatorService, namespace: string): Promise<Record<string, number>> {
  const r = await operator.listSearchAttributes({ namespace });
  return Object.fromEntries(Object.entries(r.customAttributes ?? {}).map(([k, v]) => [k, Number(v)]));
}

function check(existing: Record<string, number>) {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const [name, kind] of Object.entries(searchAttributeDefinitions)) {
    const have = existing[name];
    if (have === undefined) missing.push(name);
    else if (have !== INDEXED_VALUE_TYPE[kind]) wrong.push(`${name} is ${KIND_OF.get(have) ?? `type ${have}`}, the platform needs ${kind}`);
  }
  return { missing, wrong };
}

/**
 * Registers the platform's search attributes on the namespace through the operator API, on
 * any cluster (dev server, self-hosted, Temporal Cloud where allowed). Idempotent: attributes
 * already there with the right type are left alone; one with another type, or missing ones
 * the caller may not add, stop the start with a message naming them.
 */
export async function ensureSearchAttributes(operator: OperatorService, namespace: string, opts: EnsureOptions = {}): Promise<{ added: string[] }> {
  let existing: Record<string, number>;
  try {
    existing = await listCustom(operator, namespace);
  } catch (err) {
    if (!refused(err)) throw err;
    const all = Object.keys(searchAttributeDefinitions);
    throw new SearchAttributeSetupError(`Cannot list the search attributes of Temporal namespace "${namespace}" (${String((err as Error).message ?? err)}). `
      + `The platform needs ${describe(all)}. ${cloudInstructions(namespace, all)}`);
  }
  const first = check(existing);
  if (first.wrong.length) {
    throw new SearchAttributeSetupError(`Temporal namespace "${namespace}" has search attributes of the wrong type: ${first.wrong.join('; ')}. `
      + 'Remove them (`temporal operator search-attribute remove`) or use another namespace.');
  }
  if (!first.missing.length) return { added: [] };

  const wanted = Object.fromEntries(first.missing.map((n) => [n, INDEXED_VALUE_TYPE[searchAttributeDefinitions[n]!]]));
  let addError: unknown;
  try {
    await operator.addSearchAttributes({ namespace, searchAttributes: wanted });
  } catch (err) {
    if (refused(err)) {
      throw new SearchAttributeSetupError(`Temporal namespace "${namespace}" lacks the search attributes ${describe(first.missing)}, `
        + `and this connection may not add them (${String((err as Error).message ?? err)}). ${cloudInstructions(namespace, first.missing)}`);
    }
    // Another process (web and worker start together) may have added them first: the listing below decides.
    addError = err;
  }
  const deadline = Date.now() + (opts.settleMs ?? 15_000);
  for (;;) {
    const now = check(await listCustom(operator, namespace));
    if (now.wrong.length) throw new SearchAttributeSetupError(`Temporal namespace "${namespace}": ${now.wrong.join('; ')}.`);
    if (!now.missing.length) return { added: first.missing };
    if (addError) throw addError;
    if (Date.now() > deadline) {
      throw new SearchAttributeSetupError(`Temporal namespace "${namespace}" still lacks the search attributes ${describe(now.missing)} after adding them.`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
