import type { Knex } from 'knex';
import { conflict, notFound, ValidationError, type FieldError } from '../../../http/errors';
import { appendListVersion, ensureReferenceLists, findList, insertList, listEntries, listVersions, type ListRow } from './lists.repo';
import { DEFAULT_TENANT_LISTS, referenceLists, type TipoLista } from './lists.reference';
import { normaliseEntry, type CreateListInput, type UpdateListInput } from './lists.schemas';

/**
 * The tenant's own lists, created and changed by the compliance officer and the admin: every
 * change is a new version (the decisions that read the old one still name it). The reference
 * lists are read-only (409): they follow their sources.
 */

type Entry = string | { valore: string; nota?: string | undefined };

function normalise(tipo: TipoLista, field: string, raw: readonly Entry[]): { voci: { valore: string; nota: string | null }[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen = new Map<string, { valore: string; nota: string | null }>();
  raw.forEach((e, i) => {
    const value = typeof e === 'string' ? e : e.valore;
    const r = normaliseEntry(tipo, value);
    if (!r.ok) { errors.push({ path: `${field}.${i}`, message: r.message }); return; }
    if (!seen.has(r.valore)) seen.set(r.valore, { valore: r.valore, nota: typeof e === 'string' ? null : e.nota ?? null });
  });
  return { voci: [...seen.values()].sort((a, b) => (a.valore < b.valore ? -1 : 1)), errors };
}

export async function listDetail(trx: Knex.Transaction, codAzienda: string, codice: string) {
  await ensureReferenceLists(trx, codAzienda);
  const list = await findList(trx, codAzienda, codice);
  if (!list) throw notFound('Lista');
  return { ...list, elementi: list.versione_id ? await listEntries(trx, codAzienda, list.versione_id) : [], versioni: await listVersions(trx, codAzienda, list.id) };
}

export async function createTenantList(trx: Knex.Transaction, codAzienda: string, actor: string, input: CreateListInput): Promise<ListRow> {
  const reserved = new Set([...(await referenceLists(trx)).map((r) => r.codice), ...DEFAULT_TENANT_LISTS.map((d) => d.codice)]);
  if (reserved.has(input.codice) || await findList(trx, codAzienda, input.codice)) {
    throw new ValidationError([{ path: 'codice', message: 'Esiste già una lista con questo codice' }]);
  }
  const { voci, errors } = normalise(input.tipo, 'voci', input.voci);
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  const list = await insertList(trx, { codAzienda, codice: input.codice, nome: input.nome, tipo: input.tipo, origine: 'tenant', descrizione: input.descrizione, actor });
  await appendListVersion(trx, { codAzienda, list, voci, fonte: null, motivazione: 'Prima versione', actor });
  return (await findList(trx, codAzienda, input.codice))!;
}

export async function updateTenantList(trx: Knex.Transaction, codAzienda: string, actor: string, codice: string, input: UpdateListInput): Promise<ListRow> {
  await ensureReferenceLists(trx, codAzienda);
  const list = await findList(trx, codAzienda, codice, true);
  if (!list) throw notFound('Lista');
  if (list.origine === 'riferimento') {
    throw conflict('LISTA_DI_RIFERIMENTO', 'Le liste di riferimento seguono le loro fonti e non si modificano: crea una lista interna', { allowed_actions: [] });
  }
  if (input.nome && input.nome !== list.nome) await trx('liste_riferimento').where({ id: list.id }).update({ nome: input.nome, updated_at: new Date() });
  if (!input.voci && !input.aggiungi && !input.rimuovi) return (await findList(trx, codAzienda, codice))!;
  let voci: { valore: string; nota: string | null }[];
  if (input.voci) {
    const r = normalise(list.tipo, 'voci', input.voci);
    if (r.errors.length) throw new ValidationError(r.errors, r.errors[0]!.message);
    voci = r.voci;
  } else {
    const current = new Map((list.versione_id ? await listEntries(trx, codAzienda, list.versione_id) : []).map((e) => [e.valore, e]));
    const added = normalise(list.tipo, 'aggiungi', input.aggiungi ?? []);
    const removed = normalise(list.tipo, 'rimuovi', input.rimuovi ?? []);
    const errors = [...added.errors, ...removed.errors];
    if (errors.length) throw new ValidationError(errors, errors[0]!.message);
    for (const e of added.voci) current.set(e.valore, e);
    for (const e of removed.voci) current.delete(e.valore);
    voci = [...current.values()].sort((a, b) => (a.valore < b.valore ? -1 : 1));
    if (voci.length > 10_000) throw new ValidationError([{ path: 'aggiungi', message: 'La lista supererebbe 10.000 voci' }]);
  }
  await appendListVersion(trx, { codAzienda, list, voci, fonte: null, motivazione: input.motivazione, actor });
  return (await findList(trx, codAzienda, codice))!;
}
