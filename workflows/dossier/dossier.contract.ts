import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { EsignNewData } from '../esign/esign.contract';
import type { DossierAction, DossierStatus } from './dossier.machine';
import type { DossierSection } from './dossier.sections';

export { DOSSIER_SECTIONS, type DossierSection } from './dossier.sections';

/** The one place that builds a dossier's workflow id: `dossier:<cod_azienda>:<id>`. */
export const dossierWorkflowId = (codAzienda: string, dossierId: string) => `dossier:${codAzienda}:${dossierId}`;
export const DOSSIER_WORKFLOW_TYPE = 'dossierWorkflow';
export const DOSSIER_RECORD_TYPE = 'dossier';

export interface DossierWorkflowInput {
  codAzienda: string;
  dossierId: string;
  state?: DossierWorkflowState;
}

export interface DossierWorkflowState {
  status: DossierStatus;
  created: boolean;
  transitions: number;
  ceremony: { id: string; status: 'active' | 'signed' | 'ended' } | null;
}

export interface DossierNewData { cod_anagrafe: string; sezioni: DossierSection[] }
export interface CreateDossierArgs { actor: MachineActor; data: DossierNewData }

export interface DossierTransitionArgs {
  action: DossierAction;
  actor: MachineActor;
  reason?: string;
  /** sign: set by the workflow, the ceremony it started. */
  ceremonyId?: string;
}

/** The dossier's row without the PDF's bytes (they never travel through workflow history). */
export interface DossierRecord {
  id: string;
  cod_azienda: string;
  cod_anagrafe: string;
  denominazione: string;
  sezioni: DossierSection[];
  stato: DossierStatus;
  pdf_sha256: string;
  pdf_bytes: number;
  pagine: number;
  manifest: Record<string, unknown>;
  manifest_jws: string;
  created_by: string;
  ceremony_id: string | null;
  signed_by: string | null;
  signed_at: string | Date | null;
  archived_at: string | Date | null;
  workflow_id: string;
  generated_at: string | Date;
  created_at: string | Date;
  updated_at: string | Date;
}

/** complete-signing before the ceremony is signed, or sign while one is under way. */
export const SIGNATURE_PENDING = 'SIGNATURE_PENDING';
export const DOSSIER_NOT_FOUND = 'DOSSIER_NOT_FOUND';
/** The customer to generate a dossier of does not exist (in this tenant). */
export const DOSSIER_SUBJECT_UNKNOWN = 'DOSSIER_SUBJECT_UNKNOWN';

export interface DossierReply { state: DossierWorkflowState; record: DossierRecord | null }

export const createDossierUpdate = defineUpdate<DossierReply, [CreateDossierArgs]>('createDossier');
export const dossierTransitionUpdate = defineUpdate<DossierReply, [DossierTransitionArgs]>('transition');
export const dossierStateQuery = defineQuery<DossierWorkflowState>('state');

export interface DossierProjection {
  codAzienda: string;
  dossierId: string;
  /** Idempotency key: the dossier event's id. */
  transitionId: string;
  actor: MachineActor;
  action: DossierAction;
  from: DossierStatus;
  to: DossierStatus;
  args: Omit<DossierTransitionArgs, 'actor' | 'action'>;
}

export interface DossierGeneration { codAzienda: string; dossierId: string; workflowId: string; actor: MachineActor; data: DossierNewData }

export interface DossierSigning { ceremonyId: string; create: { actor: MachineActor; data: EsignNewData } }

/**
 * The dossier's activities: the contract names them and activities/dossier implements them.
 * A type literal: an activity map needs the implicit index signature only type literals have.
 */
export type DossierActivities = {
  generateDossier(p: DossierGeneration): Promise<DossierRecord>;
  projectDossierTransition(p: DossierProjection): Promise<DossierRecord>;
  prepareDossierSigning(p: DossierProjection): Promise<DossierSigning>;
};
