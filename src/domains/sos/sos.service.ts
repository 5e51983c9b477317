import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant, type DbPrincipal } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { HttpError, notFound, ValidationError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { isUuid } from '../../kit/ids';
import type { ProcessClient } from '../../kit/process';
import { allowedActions } from '../../../workflows/lib/machine';
import type { SosContent, SosNewData, SosRecord, SosReply, SosTransitionArgs } from '../../../workflows/sos/sos.contract';
import { SOS_EDITABLE_STATES, sosMachine, type SosStatus } from '../../../workflows/sos/sos.machine';
import { getSetting } from '../admin';
import { alertParts, findAlert, subIndice } from '../monitoring';
import { cddEvidence, getCddTask } from '../cdd';
import { DocumentStore, sniffDocument } from '../onboarding';
import { appendSosAudit, type SosAuditAction } from './sos.audit';
import { startSos, transitionSos } from './sos.commands';
import { assertSosContentReferences, readSosContent, writeSosContent } from './sos.content';
import type { CreateSosInput, ListSosQuery } from './sos.schemas';
import { sosList } from './sos.list';
import { runList, tenantScope, type ListRequest } from '../../kit/list';
import { missingRequired } from './sos.completeness';
import { sosReadiness } from './sos.readiness';

/** What the API and the pages share: reads under the caller's principal, writes through the workflow. */

export type SosRow = Omit<SosRecord, 'trasmessa_at' | 'valutazione_scadenza' | 'created_at' | 'updated_at' | 'closed_at'> & {
  trasmessa_at: Date | null; valutazione_scadenza: Date | null; created_at: Date; updated_at: Date; closed_at: Date | null;
};

export const principalOfUser = (u: SessionUser): DbPrincipal => ({ user: u.cod_utente, roles: u.ruoli });

/** A transaction that sees only the reports this user may see (the database's policy decides). */
export const sosDb = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username, principal: principalOfUser(user) }, fn);

export const sosProcess = async (deps: Deps): Promise<ProcessClient> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

const notFoundSos = () => notFound('Segnalazione');

/** One report by id or code (SOS-000001), or undefined: another tenant's, or one this user may not see. */
export async function findSos(trx: Knex.Transaction, idOrCode: string): Promise<SosRow | undefined> {
  if (isUuid(idOrCode)) return trx('sos_reports').where({ id: idOrCode }).first();
  if (/^SOS-\d{6,}$/.test(idOrCode)) return trx('sos_reports').where({ cod_segnalazione: idOrCode }).first();
  return undefined;
}

export async function requireSos(trx: Knex.Transaction, idOrCode: string): Promise<SosRow> {
  const row = await findSos(trx, idOrCode);
  if (!row) throw notFoundSos();
  return row;
}

export const sosAllowedFor = (row: Pick<SosRow, 'stato'>, user: SessionUser) => allowedActions(sosMachine, row.stato, staffActor(user));

const field = (path: string, message: string) => new ValidationError([{ path, message }]);

async function customerSubject(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string) {
  const c = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe }).first('cod_anagrafe', 'denominazione', 'codice_fiscale');
  return c as { cod_anagrafe: string; denominazione: string; codice_fiscale: string | null } | undefined;
}

const emptyContent = (): SosContent => ({ operazioni: [], soggetti: [], rapporti: [], legami: [], fenomeni: [], indicatori: [] });

/**
 * What a new report starts from (docs/sos.md, "Creation"): an alert closed as suspicious
 * brings its customer, its operations with their executors and counterparties, its
 * relationship and the anomaly indicators of its rule (proposed); a case brings its
 * customer; by hand, the subject named.
 */
/** A file the origin already holds (a CDD abstention's evidence), attached to the new report by its content address. */
export interface ProposedAttachment { sha256: string; nome_file: string; mime: string; dimensione: number; descrizione: string }

export async function proposeSos(trx: Knex.Transaction, codAzienda: string, b: CreateSosInput): Promise<{
  codAnagrafe: string; ref: string | null; content: SosContent; descrizione: string | null; allegati: ProposedAttachment[];
}> {
  const content = emptyContent();
  let descrizione: string | null = null;
  const allegati: ProposedAttachment[] = [];
  let codAnagrafe = b.cod_anagrafe ?? null;
  let ref = b.origine_ref ?? null;
  if (b.origine === 'alert') {
    const alert = await findAlert(trx, codAzienda, b.origine_ref!);
    if (!alert) throw field('origine_ref', 'Alert non trovato');
    if (alert.disposizione !== 'sospetto') throw field('origine_ref', 'Solo un alert con disposizione «sospetto» può originare una segnalazione');
    codAnagrafe = alert.cod_anagrafe;
    ref = alert.cod_alert;
    const { movimenti } = await alertParts(trx, codAzienda, alert.id);
    content.operazioni = movimenti.map((m) => ({
      movimento_id: m.id, cod_alert: alert.cod_alert, data_operazione: String(m.data_operazione).slice(0, 10), importo: Number(m.importo),
      valuta: m.valuta, segno: m.segno, causale: m.causale, descrizione: [m.canale, m.contanti ? 'contanti' : null].filter(Boolean).join(', '),
    }));
    if (alert.cod_rapporto) content.rapporti.push({ cod_rapporto: alert.cod_rapporto, descrizione: `Rapporto ${alert.cod_rapporto}` });
    const executors = [...new Set(movimenti.map((m) => m.cod_anagrafe_esecutore).filter((e): e is string => !!e && e !== alert.cod_anagrafe))];
    for (const e of executors) {
      const s = await customerSubject(trx, codAzienda, e);
      if (s) content.soggetti.push({ cod_anagrafe: s.cod_anagrafe, nominativo: s.denominazione, codice_fiscale: s.codice_fiscale, ruolo: 'esecutore' });
    }
    for (const name of [...new Set(movimenti.map((m) => m.controparte_nome).filter((n): n is string => !!n))]) {
      content.soggetti.push({ cod_anagrafe: null, nominativo: name, codice_fiscale: null, ruolo: 'controparte' });
    }
    if (alert.versione_id) {
      const v = await trx('monitoring_regole_versioni').where({ id: alert.versione_id }).first('indicatori') as { indicatori: string[] } | undefined;
      for (const code of v?.indicatori ?? []) {
        const s = subIndice(code);
        if (s) content.indicatori.push({ indicatore: s.indicatore, sottoindice: s.codice, proposto: true });
      }
    }
  } else if (b.origine === 'caso') {
    const c = isUuid(b.origine_ref!) ? await trx('cases').where({ id: b.origine_ref }).first('id', 'cod_anagrafe') as { id: string; cod_anagrafe: string | null } | undefined : undefined;
    if (!c) throw field('origine_ref', 'Caso non trovato');
    if (c.cod_anagrafe && b.cod_anagrafe && b.cod_anagrafe !== c.cod_anagrafe) throw field('cod_anagrafe', 'Il soggetto indicato non è quello del caso');
    codAnagrafe = c.cod_anagrafe ?? codAnagrafe;
    if (!codAnagrafe) throw field('cod_anagrafe', 'Il caso non riguarda un soggetto: indicalo');
  } else if (b.origine === 'cdd') {
    // Only an abstention (art. 42) of this tenant's CDD, about the subject named, may originate a report.
    const t = await getCddTask(trx, b.origine_ref!);
    if (!t) throw field('origine_ref', 'Verifica di adeguata verifica non trovata');
    if (t.stato !== 'abstained') throw field('origine_ref', 'Solo una verifica conclusa con astensione può originare una segnalazione');
    if (b.cod_anagrafe && b.cod_anagrafe !== t.cod_anagrafe) throw field('cod_anagrafe', 'Il soggetto indicato non è il cliente della verifica');
    codAnagrafe = t.cod_anagrafe;
    ref = t.cod_pratica;
    const evidence = await cddEvidence(trx, t.id);
    // The abstention's reasons and evidence open the description; its files come along as attachments.
    descrizione = [
      `Astensione nella verifica ${t.cod_pratica}: ${t.motivazione_astensione ?? ''}`.trim(),
      ...(evidence.length ? ['Evidenze raccolte nella verifica:', ...evidence.map((e) => `- ${e.descrizione}${e.riferimento ? ` (${e.riferimento})` : ''}`)] : []),
    ].join('\n');
    for (const e of evidence) {
      if (e.sha256 && e.nome_file) allegati.push({ sha256: e.sha256, nome_file: e.nome_file, mime: e.mime ?? 'application/octet-stream', dimensione: Number(e.dimensione ?? 0), descrizione: `Evidenza della verifica ${t.cod_pratica}: ${e.descrizione}`.slice(0, 500) });
    }
  }
  if (!codAnagrafe) throw field('cod_anagrafe', 'Indica il soggetto segnalato');
  const customer = await customerSubject(trx, codAzienda, codAnagrafe);
  if (!customer) throw field('cod_anagrafe', 'Soggetto non trovato');
  content.soggetti.unshift({ cod_anagrafe: customer.cod_anagrafe, nominativo: customer.denominazione, codice_fiscale: customer.codice_fiscale, ruolo: 'cliente' });
  return { codAnagrafe: customer.cod_anagrafe, ref, content, descrizione, allegati };
}

export async function readEvaluationDays(trx: Knex.Transaction, codAzienda: string): Promise<number> {
  const v = Number(await getSetting(trx, 'sos.evaluation_days', codAzienda));
  return Number.isInteger(v) && v > 0 ? v : 30;
}

export function sosView(deps: Deps, user: SessionUser, row: SosRow | SosRecord) {
  return { ...row, allowed_actions: sosAllowedFor(row, user), workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) } };
}

export async function createSos(deps: Deps, codAzienda: string, user: SessionUser, b: CreateSosInput) {
  const prepared = await sosDb(deps, codAzienda, user)(async (trx) => {
    if (b.content) await assertSosContentReferences(trx, codAzienda, b.content as SosContent);
    const proposal = await proposeSos(trx, codAzienda, b);
    let sostituisce: string | null = null;
    if (b.sostituisce) {
      const orig = await findSos(trx, b.sostituisce);
      if (!orig) throw field('sostituisce', 'Segnalazione da sostituire non trovata');
      if (!['transmitted', 'closed'].includes(orig.stato)) throw field('sostituisce', 'Si può sostituire solo una segnalazione già trasmessa');
      sostituisce = orig.id;
    }
    // Content given by the caller replaces the proposal, but the reported customer is always among the subjects (appended: links name subjects by index).
    const content: SosContent = (b.content as SosContent | undefined) ?? proposal.content;
    const customer = proposal.content.soggetti.find((x) => x.ruolo === 'cliente');
    if (b.content && customer && !content.soggetti.some((x) => x.ruolo === 'cliente' && x.cod_anagrafe === customer.cod_anagrafe)) content.soggetti = [...content.soggetti, customer];
    const data: SosNewData = {
      tipo: sostituisce ? 'sostitutiva' : 'originale', sostituisce_id: sostituisce, origine: b.origine, origine_ref: proposal.ref,
      cod_anagrafe: proposal.codAnagrafe, oggetto: b.oggetto, descrizione: b.descrizione || proposal.descrizione || '', content,
    };
    return { data, evaluationDays: await readEvaluationDays(trx, codAzienda), allegati: proposal.allegati };
  });
  const { allegati, ...start } = prepared;
  const { sosId, reply } = await startSos(await sosProcess(deps), { codAzienda, user, ...start });
  if (allegati.length) {
    await sosDb(deps, codAzienda, user)(async (trx) => {
      for (const a of allegati) {
        const id = randomUUID();
        await trx('sos_allegati').insert({ id, cod_azienda: codAzienda, sos_id: sosId, sha256: a.sha256, nome_file: a.nome_file, mime: a.mime, dimensione: a.dimensione, descrizione: a.descrizione, created_by: user.username });
        await appendSosAudit(trx, { codAzienda, sosId, actor: user.username, action: 'sos.attachment', data: { id, sha256: a.sha256, nome_file: a.nome_file, origine: 'cdd' } });
      }
    });
  }
  const record = reply.record ?? await sosDb(deps, codAzienda, user)((trx) => requireSos(trx, sosId));
  return { sosId, view: sosView(deps, user, record) };
}

/** One page of the SOS list: what the database shows this caller (the tipping-off policy), through the list kit. */
export async function listSos(deps: Deps, codAzienda: string, user: SessionUser, q: ListSosQuery) {
  const req = { ...q, reporter: q.reporter === 'me' ? user.cod_utente : q.reporter };
  return sosDb(deps, codAzienda, user)((trx) => runList<SosRow>(trx, sosList, tenantScope(codAzienda), req as ListRequest));
}

/** The report with everything it holds; the read itself is recorded in the report's audit chain. */
export async function sosDetail(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, action: SosAuditAction = 'sos.read') {
  return sosDb(deps, codAzienda, user)(async (trx) => {
    const row = await requireSos(trx, idOrCode);
    await appendSosAudit(trx, { codAzienda, sosId: row.id, actor: user.username, action });
    const w = { sos_id: row.id };
    return {
      row,
      content: await readSosContent(trx, row.id),
      allegati: await trx('sos_allegati').where(w).orderBy('created_at').select('id', 'nome_file', 'mime', 'dimensione', 'sha256', 'descrizione', 'created_by', 'created_at'),
      comunicazioni: await trx('sos_comunicazioni').where(w).orderBy(['data', 'created_at'])
        .select('id', 'direzione', trx.raw("to_char(data, 'YYYY-MM-DD') as data"), 'oggetto', 'testo', 'protocollo', 'created_by', 'created_at'),
      eventi: await trx('sos_eventi').where(w).orderBy(['created_at', 'id']).select('id', 'tipo', 'testo', 'actor', 'created_at'),
      audit: await trx('sos_audit').where(w).orderBy('seq').select('seq', 'actor', 'action', 'data', 'created_at', 'hash', 'prev_hash'),
      sostituita_da: await trx('sos_reports').where({ sostituisce_id: row.id }).select('id', 'cod_segnalazione', 'stato'),
      sostituisce: row.sostituisce_id ? await trx('sos_reports').where({ id: row.sostituisce_id }).first('id', 'cod_segnalazione') : null,
    };
  });
}

export async function applySosTransition(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, args: Omit<SosTransitionArgs, 'actor'>) {
  // Addressed by id through the workflow; a report this user may not see is "not found" before anything is sent.
  const row = await sosDb(deps, codAzienda, user)((trx) => requireSos(trx, idOrCode));
  if (args.action === 'complete-transmission' && row.stato === 'to_transmit') {
    // Nothing incomplete leaves for the UIF: the required items of /sos/completeness must all hold.
    const missing = missingRequired((await sosDb(deps, codAzienda, user)((trx) => sosReadiness(trx, row))).items);
    if (missing.length) {
      throw new HttpError(422, 'SOS_INCOMPLETE', 'Segnalazione incompleta', `Prima della trasmissione manca: ${missing.map((m) => m.label).join('; ')}`,
        { errors: missing.map((m) => ({ path: m.code, message: m.label })), rules: missing.map((m) => ({ code: m.code, rule: m.rule })) });
    }
  }
  const reply: SosReply = await transitionSos(await sosProcess(deps), { codAzienda, sosId: row.id }, user, args, async () => row);
  const record = reply.record ?? await sosDb(deps, codAzienda, user)((trx) => requireSos(trx, row.id));
  return sosView(deps, user, record);
}

/** Replaces the structured content while the report may still change (the investigation view, the API). */
export async function updateSosContent(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, content: SosContent, descrizione?: string) {
  return sosDb(deps, codAzienda, user)(async (trx) => {
    const row = await requireSos(trx, idOrCode);
    await assertSosContentReferences(trx, codAzienda, content);
    const locked = await trx('sos_reports').where({ id: row.id }).forUpdate().first('stato') as { stato: SosStatus };
    if (!SOS_EDITABLE_STATES.includes(locked.stato)) throw field('content', 'La segnalazione non è più modificabile in questo stato');
    await writeSosContent(trx, codAzienda, row.id, content);
    if (descrizione !== undefined) await trx('sos_reports').where({ id: row.id }).update({ descrizione, updated_at: new Date() });
    await appendSosAudit(trx, {
      codAzienda, sosId: row.id, actor: user.username, action: 'sos.content',
      data: { operazioni: content.operazioni.length, soggetti: content.soggetti.length, fenomeni: content.fenomeni, indicatori: content.indicatori.length },
    });
    return row.id;
  });
}

export const sosDocumentStore = (deps: Deps) => new DocumentStore(deps.config.documentDir);

export async function addSosAttachment(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, a: { nome_file: string; descrizione: string; bytes: Buffer; mime?: string }) {
  const sniffed = await sniffDocument(a.bytes, a.mime);
  if (!sniffed.ok) throw field('contenuto_base64', sniffed.message);
  // Only someone who may see the report may store a file for it: checked before the bytes are written.
  const sosId = await sosDb(deps, codAzienda, user)(async (trx) => (await requireSos(trx, idOrCode)).id);
  const sha256 = await sosDocumentStore(deps).put(codAzienda, a.bytes);
  return sosDb(deps, codAzienda, user)(async (trx) => {
    const row = { id: randomUUID(), cod_azienda: codAzienda, sos_id: sosId, sha256, nome_file: a.nome_file, mime: sniffed.mime, dimensione: a.bytes.length, descrizione: a.descrizione, created_by: user.username };
    await trx('sos_allegati').insert(row);
    await appendSosAudit(trx, { codAzienda, sosId, actor: user.username, action: 'sos.attachment', data: { id: row.id, sha256, nome_file: a.nome_file } });
    return { id: row.id, nome_file: row.nome_file, mime: row.mime, dimensione: row.dimensione, sha256 };
  });
}

export async function addSosCommunication(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string,
  c: { direzione: 'inviata' | 'ricevuta'; data: string; oggetto: string; testo?: string | undefined; protocollo: string | null }) {
  return sosDb(deps, codAzienda, user)(async (trx) => {
    const row = await requireSos(trx, idOrCode);
    if (row.stato === 'draft') throw field('direzione', 'Una bozza non ha comunicazioni con la UIF');
    const id = randomUUID();
    await trx('sos_comunicazioni').insert({ id, cod_azienda: codAzienda, sos_id: row.id, direzione: c.direzione, data: c.data, oggetto: c.oggetto, testo: c.testo ?? '', protocollo: c.protocollo, created_by: user.username });
    await appendSosAudit(trx, { codAzienda, sosId: row.id, actor: user.username, action: 'sos.communication', data: { id, direzione: c.direzione, protocollo: c.protocollo } });
    return { id, direzione: c.direzione, data: c.data, oggetto: c.oggetto, protocollo: c.protocollo };
  });
}
