import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { ReleaseAction, ReleaseStatus } from './monitoring-release.machine';

/** One workflow per draft: `monitoring-release:<cod_azienda>:<version id>` (a refused release may be asked again: a new run). */
export const releaseWorkflowId = (codAzienda: string, versionId: string) => `monitoring-release:${codAzienda}:${versionId}`;
export const MONITORING_RELEASE_WORKFLOW_TYPE = 'monitoringReleaseWorkflow';
export const MONITORING_RELEASE_RECORD_TYPE = 'monitoring-release';

/** Failure types of the release's projections (their HTTP answers: src/domains/monitoring/release/release.commands.ts). */
export const RELEASE_FAILURES = { gatesNotMet: 'RELEASE_GATES_NOT_MET', notADraft: 'NOT_A_DRAFT' } as const;

export interface ReleaseWorkflowInput {
  codAzienda: string;
  versionId: string;
  /** Set when continuing as new. */
  state?: ReleaseWorkflowState;
}

export interface ReleaseWorkflowState {
  status: ReleaseStatus;
  created: boolean;
  transitions: number;
  /** Who asked (user id): approval must come from someone else. */
  richiestoDa: string | null;
}

/** The release's row as its projection left it. */
export interface ReleaseRecord {
  id: string;
  cod_azienda: string;
  regola_id: string;
  stato: ReleaseStatus;
  versione_hash: string;
  richiesto_da: string;
  richiesto_da_username: string;
  richiesto_at: string | Date;
  motivazione: string | null;
  deciso_da: string | null;
  deciso_at: string | Date | null;
  motivazione_decisione: string | null;
  cancelli: unknown;
  workflow_id: string;
}

export interface ReleaseReply { state: ReleaseWorkflowState; record: ReleaseRecord | null }

export interface CreateReleaseArgs { actor: MachineActor; motivazione?: string }
export interface ReleaseTransitionArgs { action: ReleaseAction; actor: MachineActor; motivazione?: string }

export const createReleaseUpdate = defineUpdate<ReleaseReply, [CreateReleaseArgs]>('createRelease');
export const releaseTransitionUpdate = defineUpdate<ReleaseReply, [ReleaseTransitionArgs]>('releaseTransition');
export const releaseStateQuery = defineQuery<ReleaseWorkflowState>('releaseState');
