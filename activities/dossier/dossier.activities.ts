import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { DOSSIER_COLUMNS } from '../../src/domains/dossier/dossier.columns';
import { collectDossierData } from '../../src/domains/dossier/dossier.data';
import { dossierEventText } from '../../src/domains/dossier/dossier.labels';
import { sha256Hex, signManifest, type DossierManifest } from '../../src/domains/dossier/dossier.manifest';
import { renderDossierPdf } from '../../src/domains/dossier/dossier.pdf';
import { dossierEsignToken } from '../../src/domains/dossier/dossier.tokens';
import { recordSpineDocument } from '../../src/kit/document-sources';
import { fullNamesByUsername } from '../../src/kit/users';
import {
  DOSSIER_NOT_FOUND, DOSSIER_SUBJECT_UNKNOWN, type DossierActivities, type DossierProjection, type DossierRecord,
} from '../../workflows/dossier/dossier.contract';
import { normaliseSections } from '../../workflows/dossier/dossier.sections';
import type { ActivityDeps } from '../deps';

const notFound = (id: string) => ApplicationFailure.create({ type: DOSSIER_NOT_FOUND, message: `dossier ${id} not found`, nonRetryable: true });
const CONSENT = { testo: 'Confermo di aver verificato il fascicolo del cliente e di firmarlo come sua rappresentazione fedele alla data di generazione.', versione: 'dossier-1' };

const readRow = (trx: Knex.Transaction, id: string) => trx('dossiers').where({ id }).first(DOSSIER_COLUMNS) as Promise<DossierRecord | undefined>;

/** The fields a transition writes on the row besides its state. */
function transitionFields(p: DossierProjection, now: Date): Record<string, unknown> {
  switch (p.action) {
    case 'sign': return { ceremony_id: p.args.ceremonyId ?? null };
    case 'complete-signing': return { signed_by: p.actor.username, signed_at: now };
    case 'archive': return { archived_at: now };
    default: return {};
  }
}

/**
 * The dossier workflow's side of the database: the generation (data read through the areas'
 * public surfaces, the PDF, its SHA-256 and the signed manifest, in one row with its event and
 * audit event), each transition's projection, and the signing ceremony's document. Idempotent:
 * a retried step finds what it wrote and answers it.
 */
export function createDossierActivities(deps: ActivityDeps): DossierActivities {
  const { db } = deps;
  const tx = <T>(p: { codAzienda: string; actor: { username: string } }, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);

  return {
    async generateDossier(p) {
      const sections = normaliseSections(p.data.sezioni);
      const read = await tx(p, async (trx) => {
        const existing = await readRow(trx, p.dossierId);
        if (existing) return { existing };
        const data = await collectDossierData(trx, p.codAzienda, p.data.cod_anagrafe, sections);
        const azienda = await trx('aziende').where({ cod_azienda: p.codAzienda }).first('ragione_sociale') as { ragione_sociale: string } | undefined;
        const names = await fullNamesByUsername(trx, [p.actor.username]);
        return { data, ragioneSociale: azienda?.ragione_sociale ?? p.codAzienda, author: names[p.actor.username] ?? p.actor.username };
      });
      if ('existing' in read) return read.existing!;
      if (!read.data) throw ApplicationFailure.create({ type: DOSSIER_SUBJECT_UNKNOWN, message: `customer ${p.data.cod_anagrafe} not found`, nonRetryable: true });
      const generatedAt = new Date();
      const { pdf, pages } = await renderDossierPdf(read.data, {
        dossierId: p.dossierId, codAzienda: p.codAzienda, ragioneSociale: read.ragioneSociale, generatedAt, generatedBy: read.author, sections,
      });
      const manifest: DossierManifest = {
        format: 'dossier-manifest/1', dossier_id: p.dossierId, cod_azienda: p.codAzienda, cod_anagrafe: p.data.cod_anagrafe,
        generated_at: generatedAt.toISOString(), generated_by: p.actor.username, sections, pages,
        file: { name: `fascicolo-${p.data.cod_anagrafe}-${p.dossierId.slice(0, 8)}.pdf`, bytes: pdf.length, sha256: sha256Hex(pdf) },
      };
      const jws = await signManifest(manifest);
      return tx(p, async (trx) => {
        const inserted = await trx('dossiers').insert({
          id: p.dossierId, cod_azienda: p.codAzienda, cod_anagrafe: p.data.cod_anagrafe, denominazione: read.data!.subject.denominazione,
          sezioni: sections, stato: 'generated', pdf, pdf_sha256: manifest.file.sha256, pdf_bytes: pdf.length, pagine: pages,
          manifest: JSON.stringify(manifest), manifest_jws: jws, created_by: p.actor.username, workflow_id: p.workflowId, generated_at: generatedAt,
        }).onConflict('id').ignore().returning(DOSSIER_COLUMNS);
        if (!inserted.length) return (await readRow(trx, p.dossierId))!;
        await trx('dossier_events').insert({
          id: randomUUID(), cod_azienda: p.codAzienda, dossier_id: p.dossierId, tipo: 'generate', testo: dossierEventText('generate'), actor: p.actor.username,
        });
        // Indexed in the document spine in the transaction that stores the PDF (docs/document-spine.md).
        await recordSpineDocument(trx, {
          codAzienda: p.codAzienda, tipo: 'dossier', sorgenteId: p.dossierId, sha256: manifest.file.sha256, nome_file: manifest.file.name,
          mime: 'application/pdf', dimensione: pdf.length, cod_anagrafe: p.data.cod_anagrafe, record_tipo: 'dossier', record_id: p.dossierId,
          archivio: 'record', createdBy: p.actor.username, descrizione: `Fascicolo del cliente ${p.data.cod_anagrafe}`,
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'dossier.generate', entityType: 'dossier', entityId: p.dossierId,
          data: { cod_anagrafe: p.data.cod_anagrafe, sections, pages, sha256: manifest.file.sha256, workflow_id: p.workflowId },
        });
        return inserted[0] as DossierRecord;
      });
    },

    projectDossierTransition: (p) => tx(p, async (trx) => {
      const row = await trx('dossiers').where({ id: p.dossierId }).forUpdate().first('id');
      if (!row) throw notFound(p.dossierId);
      const inserted = await trx('dossier_events').insert({
        id: p.transitionId, cod_azienda: p.codAzienda, dossier_id: p.dossierId, tipo: p.action, testo: dossierEventText(p.action, p.args.reason), actor: p.actor.username,
      }).onConflict('id').ignore().returning('id');
      if (!inserted.length) return (await readRow(trx, p.dossierId))!;
      const now = new Date();
      const [updated] = await trx('dossiers').where({ id: p.dossierId }).update({ stato: p.to, ...transitionFields(p, now), updated_at: now }).returning(DOSSIER_COLUMNS);
      await appendAudit(trx, {
        codAzienda: p.codAzienda, actor: p.actor.username, action: `dossier.${p.action}`, entityType: 'dossier', entityId: p.dossierId,
        data: { from: p.from, to: p.to, transition_id: p.transitionId, ...(p.args.ceremonyId ? { ceremony_id: p.args.ceremonyId } : {}), ...(p.args.reason ? { reason: p.args.reason } : {}) },
      });
      return updated as DossierRecord;
    }),

    async prepareDossierSigning(p) {
      const ceremonyId = p.transitionId;
      return tx(p, async (trx) => {
        const row = await trx('dossiers').where({ id: p.dossierId }).first('id', 'cod_anagrafe', 'pdf', 'workflow_id') as { id: string; cod_anagrafe: string; pdf: Buffer; workflow_id: string } | undefined;
        if (!row) throw notFound(p.dossierId);
        const signer = await trx('utenti').where({ cod_utente: p.actor.id }).first('nome', 'cognome', 'email');
        return {
          ceremonyId,
          create: {
            actor: p.actor,
            data: {
              signer: { nome: [signer?.nome, signer?.cognome].filter(Boolean).join(' ') || p.actor.username, email: signer?.email ?? '' },
              document: { nome: `fascicolo-${row.cod_anagrafe}-${row.id.slice(0, 8)}.pdf`, contenuto_base64: row.pdf.toString('base64') },
              consent: CONSENT,
              tokenHash: sha256Hex(dossierEsignToken(deps.config.sessionSecret, ceremonyId)),
              parentWorkflowId: row.workflow_id,
            },
          },
        };
      });
    },
  };
}
