import type { Knex } from 'knex';
import { conflict, notFound, ValidationError } from '../../../http/errors';
import { quota } from '../../../http/share-format';
import { newRecordId } from '../../../kit/request-context';
import { appendAudit } from '../../audit';
import { getVerificationRow, type VerificationRow } from '../kyc-kyb/verification.repo';
import { TIPO_NODO_LABELS, type TipoNodo } from '../verifications.vocabulary';
import { declaredOwners, discrepancies } from './structure.discrepancy';
import { calculationById, structureEdges, structureNodes, toGraph, type CalculationRow, type EdgeRow, type NodeRow } from './structure.repo';
import type { CreateEdgeBody, CreateNodeBody } from './structure.schemas';
import { computeUbo } from './ubo.engine';
import { UboInputError } from './ubo.types';

/** Who changes a structure: the user's id goes into created_by, the username into the audit trail. */
export interface StructureActor { id: string; username: string }

const json = (v: unknown) => JSON.stringify(v ?? null);
const field = (path: string, message: string) => new ValidationError([{ path, message }]);

/** The KYB of the tenant by its code, or 404 (another tenant's, a KYC's code, or none). */
export async function requireKyb(trx: Knex.Transaction, codAzienda: string, codVerifica: string): Promise<VerificationRow> {
  const v = await getVerificationRow(trx, codAzienda, 'kyb', codVerifica);
  if (!v) throw notFound('Verifica');
  return v;
}

/** A decided or expired verification's structure is the record of what was verified: it is not changed afterwards. */
function assertOpen(v: VerificationRow) {
  if (v.stato !== 'pending' && v.stato !== 'in_progress') {
    throw conflict('VERIFICATION_CLOSED', `La verifica ${v.cod_verifica} è chiusa: la sua struttura societaria non si modifica né si ricalcola`, { stato: v.stato });
  }
}

/**
 * The root node (the KYB's customer), created from the customer record when missing: a KYB opened
 * before its structure was seeded gets its root on the first change, so every structure has one.
 */
async function ensureRoot(trx: Knex.Transaction, codAzienda: string, actor: StructureActor, v: Pick<VerificationRow, 'id' | 'cod_anagrafe'>, given: SeedRoot = {}): Promise<{ root: NodeRow; created: boolean }> {
  const existing = (await structureNodes(trx, codAzienda, v.id)).find((n) => n.radice);
  if (existing) return { root: existing, created: false };
  const c = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: v.cod_anagrafe })
    .first('denominazione', 'codice_fiscale', 'partita_iva', 'paese_fiscale');
  const paese = given.paese ?? c?.paese_fiscale ?? null;
  const id = newRecordId();
  await trx('strutture_nodi').insert({
    id, cod_azienda: codAzienda, verifica_id: v.id, tipo: given.tipo ?? 'societa', denominazione: given.denominazione ?? c?.denominazione ?? v.cod_anagrafe,
    codice_fiscale: given.codice_fiscale ?? c?.codice_fiscale ?? c?.partita_iva ?? null, paese: paese && /^[A-Z]{2}$/.test(paese) ? paese : null,
    cod_anagrafe: v.cod_anagrafe, radice: true, fonte: 'anagrafe', created_by: actor.id,
  });
  return { root: (await structureNodes(trx, codAzienda, v.id)).find((n) => n.id === id)!, created: true };
}

export interface SeedRoot { tipo?: Exclude<TipoNodo, 'persona_fisica'>; denominazione?: string; codice_fiscale?: string | null; paese?: string | null }
/** A declared owner as onboarding collects it (onboarding.schemas uboSchema) or as an operator types it. */
export interface SeedOwner {
  nome?: string; cognome?: string; denominazione?: string; codice_fiscale?: string | null; data_nascita?: string | null;
  nazionalita?: string | null; paese_residenza?: string | null; percentuale?: number | null; tipo_controllo?: string | null; cod_anagrafe?: string | null;
}
export interface SeedStructureRequest {
  codAzienda: string;
  actor: StructureActor;
  verificaId: string;
  root?: SeedRoot;
  titolari?: SeedOwner[];
}

/**
 * Seeds a new KYB's structure in the caller's transaction (part kyc calls it when it opens the
 * KYB): the customer as root and each declared owner as a person, WITHOUT edges. The edges are
 * what the analyst verifies (registry extract, shareholders' book) and draws: seeding them from the
 * declaration would make calcola-ubo confirm the declaration by construction, and the comparison
 * with the declared owners is the point of the check. Seeding twice changes nothing.
 */
export async function seedStructure(trx: Knex.Transaction, r: SeedStructureRequest): Promise<{ nodi: number; archi: number }> {
  const v = await trx('verifiche').where({ cod_azienda: r.codAzienda, id: r.verificaId }).first('id', 'cod_anagrafe', 'tipo') as Pick<VerificationRow, 'id' | 'cod_anagrafe' | 'tipo'> | undefined;
  if (!v) throw notFound('Verifica');
  if (v.tipo !== 'kyb') throw new Error('seedStructure: only a KYB has a corporate structure');
  const { root, created } = await ensureRoot(trx, r.codAzienda, r.actor, v, r.root);
  if (!created) return { nodi: 0, archi: 0 };
  let nodi = 1;
  // One statement time for the whole seed: each row a millisecond apart keeps the declared order.
  const at = (i: number) => new Date(root.created_at.getTime() + i + 1);
  for (const [i, t] of (r.titolari ?? []).entries()) {
    const name = (t.denominazione ?? [t.nome, t.cognome].filter(Boolean).join(' ')).trim();
    if (!name) continue;
    const id = newRecordId();
    const paese = (t.paese_residenza ?? t.nazionalita ?? '').toUpperCase();
    await trx('strutture_nodi').insert({
      id, cod_azienda: r.codAzienda, verifica_id: v.id, tipo: 'persona_fisica', denominazione: name, codice_fiscale: t.codice_fiscale ? t.codice_fiscale.toUpperCase() : null,
      paese: /^[A-Z]{2}$/.test(paese) ? paese : null, data_nascita: t.data_nascita || null, cod_anagrafe: t.cod_anagrafe ?? null, fonte: 'onboarding', created_by: r.actor.id, created_at: at(i),
    });
    nodi++;
  }
  await appendAudit(trx, {
    codAzienda: r.codAzienda, actor: r.actor.username, action: 'verifica.struttura_seed', entityType: 'verifica', entityId: v.id, data: { radice: root.denominazione, nodi, archi: 0 },
  });
  return { nodi, archi: 0 };
}

/** Adds a node; a customer code must be one of the tenant's records. */
export async function addNode(trx: Knex.Transaction, codAzienda: string, actor: StructureActor, v: VerificationRow, body: CreateNodeBody): Promise<NodeRow> {
  assertOpen(v);
  await ensureRoot(trx, codAzienda, actor, v);
  if (body.cod_anagrafe) {
    const c = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: body.cod_anagrafe }).first('cod_anagrafe');
    if (!c) throw field('cod_anagrafe', 'Soggetto non trovato in anagrafe');
  }
  const id = newRecordId();
  await trx('strutture_nodi').insert({
    id, cod_azienda: codAzienda, verifica_id: v.id, tipo: body.tipo, denominazione: body.denominazione, codice_fiscale: body.codice_fiscale ?? null,
    paese: body.paese ?? null, data_nascita: body.data_nascita ?? null, cod_anagrafe: body.cod_anagrafe ?? null, fonte: 'manuale', created_by: actor.id,
  });
  await appendAudit(trx, {
    codAzienda, actor: actor.username, action: 'verifica.struttura_nodo', entityType: 'verifica', entityId: v.id,
    data: { cod_verifica: v.cod_verifica, nodo_id: id, tipo: body.tipo, denominazione: body.denominazione },
  });
  return (await structureNodes(trx, codAzienda, v.id)).find((n) => n.id === id)!;
}

const TRUST_ROLES = new Set(['disponente', 'trustee', 'protettore', 'beneficiario']);
const HELD = new Set<TipoNodo>(['societa', 'societa_quotata', 'trust']);

/**
 * Adds an edge between two nodes of the same structure. Refused: a node of another structure, the
 * same edge twice (409), an edge that makes no sense for the kinds of nodes (a share of a person,
 * a trustee of a company), and holdings in one entity above 100% of its capital or votes.
 */
export async function addEdge(trx: Knex.Transaction, codAzienda: string, actor: StructureActor, v: VerificationRow, body: CreateEdgeBody): Promise<EdgeRow> {
  assertOpen(v);
  await ensureRoot(trx, codAzienda, actor, v);
  // Locks the structure's nodes: two holdings added at once cannot together pass 100%.
  const nodes = await trx('strutture_nodi').where({ cod_azienda: codAzienda, verifica_id: v.id }).forUpdate().select('id', 'tipo', 'denominazione');
  const byId = new Map(nodes.map((n) => [n.id as string, n as { id: string; tipo: TipoNodo; denominazione: string }]));
  const da = byId.get(body.da_nodo_id);
  const a = byId.get(body.a_nodo_id);
  const errors = [
    ...(da ? [] : [{ path: 'da_nodo_id', message: 'Soggetto non trovato nella struttura di questa verifica' }]),
    ...(a ? [] : [{ path: 'a_nodo_id', message: 'Soggetto non trovato nella struttura di questa verifica' }]),
  ];
  if (errors.length) throw new ValidationError(errors);
  const target = a!;
  const kind = TIPO_NODO_LABELS[target.tipo].toLowerCase();
  if (TRUST_ROLES.has(body.tipo) && target.tipo !== 'trust') throw field('a_nodo_id', `Disponente, trustee, guardiano e beneficiario si riferiscono a un trust, non a una ${kind}`);
  if (!TRUST_ROLES.has(body.tipo) && target.tipo === 'persona_fisica') throw field('a_nodo_id', 'Una persona fisica non è partecipata, controllata né rappresentata: scegli una società, un trust o un ente');
  if (body.tipo === 'partecipazione' && !HELD.has(target.tipo)) throw field('a_nodo_id', 'Le quote di un ente pubblico non si registrano: scegli una società o un trust');
  const same = await trx('strutture_archi').where({ verifica_id: v.id, da_nodo_id: body.da_nodo_id, a_nodo_id: body.a_nodo_id, tipo: body.tipo }).first('id');
  if (same) throw conflict('DUPLICATE_EDGE', 'Questo legame tra i due soggetti è già registrato', { id: same.id });
  if (body.tipo === 'partecipazione') {
    const held = await trx('strutture_archi').where({ cod_azienda: codAzienda, verifica_id: v.id, a_nodo_id: target.id, tipo: 'partecipazione' })
      .select(trx.raw('coalesce(sum(percentuale), 0) as capitale'), trx.raw('coalesce(sum(coalesce(percentuale_voti, percentuale)), 0) as voti')).first();
    const capitale = Number(held.capitale);
    const voti = Number(held.voti);
    if (Math.round((capitale + body.percentuale!) * 10_000) > 1_000_000) {
      throw field('percentuale', `Le partecipazioni in ${target.denominazione} supererebbero il 100% del capitale (già registrato ${quota(capitale, 100)})`);
    }
    if (Math.round((voti + (body.percentuale_voti ?? body.percentuale!)) * 10_000) > 1_000_000) {
      throw field('percentuale_voti', `I diritti di voto in ${target.denominazione} supererebbero il 100% (già registrato ${quota(voti, 100)})`);
    }
  }
  const id = newRecordId();
  await trx('strutture_archi').insert({
    id, cod_azienda: codAzienda, verifica_id: v.id, da_nodo_id: body.da_nodo_id, a_nodo_id: body.a_nodo_id, tipo: body.tipo,
    percentuale: body.percentuale ?? null, percentuale_voti: body.percentuale_voti ?? null, note: body.note ?? null, created_by: actor.id,
  });
  await appendAudit(trx, {
    codAzienda, actor: actor.username, action: 'verifica.struttura_arco', entityType: 'verifica', entityId: v.id,
    data: { cod_verifica: v.cod_verifica, arco_id: id, tipo: body.tipo, da: da!.denominazione, a: target.denominazione, percentuale: body.percentuale ?? null, percentuale_voti: body.percentuale_voti ?? null },
  });
  return (await structureEdges(trx, codAzienda, v.id)).find((e) => e.id === id)!;
}

/**
 * calcola-ubo: computes both methods on the stored structure, keeps the result, compares the
 * Italian method's owners (the legal ones) with those the customer declared, and flags the
 * verification when they differ. One transaction, audited.
 */
export async function calculateUbo(trx: Knex.Transaction, codAzienda: string, actor: StructureActor, v: VerificationRow, soglia: number): Promise<CalculationRow & { discrepanza_ubo: boolean }> {
  assertOpen(v);
  await ensureRoot(trx, codAzienda, actor, v);
  await trx('verifiche').where({ cod_azienda: codAzienda, id: v.id }).forUpdate().first('id');
  const nodes = await structureNodes(trx, codAzienda, v.id);
  const edges = await structureEdges(trx, codAzienda, v.id);
  let risultato;
  try {
    risultato = computeUbo(toGraph(nodes, edges), { soglia });
  } catch (err) {
    if (err instanceof UboInputError) throw conflict('STRUCTURE_INVALID', err.message);
    throw err;
  }
  const declared = await declaredOwners(trx, codAzienda, v);
  const diff = discrepancies(declared, risultato.italiano.titolari);
  const id = newRecordId();
  await trx('strutture_calcoli').insert({
    id, cod_azienda: codAzienda, verifica_id: v.id, soglia, risultato: json(risultato), discrepanze: json(diff), nodi: nodes.length, archi: edges.length, created_by: actor.id,
  });
  await trx('verifiche').where({ cod_azienda: codAzienda, id: v.id }).update({ discrepanza_ubo: diff.length > 0, discrepanze_ubo: json(diff), updated_at: trx.fn.now() });
  await appendAudit(trx, {
    codAzienda, actor: actor.username, action: 'verifica.calcola_ubo', entityType: 'verifica', entityId: v.id,
    data: {
      cod_verifica: v.cod_verifica, calcolo_id: id, soglia, criterio: risultato.italiano.criterio,
      titolari: risultato.italiano.titolari.map((o) => o.denominazione), titolari_moltiplicativo: risultato.moltiplicativo.titolari.map((o) => o.denominazione),
      differenze_metodi: risultato.differenze.length, discrepanze: diff.length, avvisi: (risultato.avvisi ?? []).map((w) => w.codice),
    },
  });
  return { ...(await calculationById(trx, codAzienda, id))!, discrepanza_ubo: diff.length > 0 };
}
