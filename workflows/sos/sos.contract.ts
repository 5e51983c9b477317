import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { SosAction, SosStatus } from './sos.machine';

/** The one place that builds a report's workflow id: `sos:<cod_azienda>:<id>`. */
export const sosWorkflowId = (codAzienda: string, sosId: string) => `sos:${codAzienda}:${sosId}`;
export const SOS_WORKFLOW_TYPE = 'sosWorkflow';
export const SOS_RECORD_TYPE = 'sos';

export const SOS_ORIGINI = ['alert', 'caso', 'cdd', 'manuale'] as const;
export const SOS_TIPI = ['originale', 'sostitutiva'] as const;
export const SOS_RUOLI = ['cliente', 'esecutore', 'controparte', 'titolare_effettivo', 'altro'] as const;

/** One operation of the report (from a movement, or entered by hand). */
export interface SosOperationInput {
  movimento_id?: string | null;
  cod_alert?: string | null;
  data_operazione: string;
  importo: number;
  valuta: string;
  segno?: string | null;
  causale?: string | null;
  descrizione?: string;
}
export interface SosSubjectInput { cod_anagrafe?: string | null; nominativo: string; codice_fiscale?: string | null; ruolo: (typeof SOS_RUOLI)[number] }
export interface SosIndicatorInput { indicatore: number; sottoindice: string | null; proposto?: boolean }

/** The structured content of a report (docs/sos.md, "Content"). */
export interface SosContent {
  operazioni: SosOperationInput[];
  soggetti: SosSubjectInput[];
  rapporti: { cod_rapporto?: string | null; descrizione: string }[];
  /** Links between subjects, by their index in `soggetti`. */
  legami: { da: number; a: number; tipo: string }[];
  fenomeni: string[];
  indicatori: SosIndicatorInput[];
}

export interface SosNewData {
  tipo: (typeof SOS_TIPI)[number];
  sostituisce_id?: string | null;
  origine: (typeof SOS_ORIGINI)[number];
  origine_ref?: string | null;
  cod_anagrafe: string;
  oggetto: string;
  descrizione: string;
  content: SosContent;
}

export interface SosWorkflowInput {
  codAzienda: string;
  sosId: string;
  /** The tenant's evaluation term, read when the report was created. */
  evaluationDays: number;
  state?: SosWorkflowState;
}

export interface SosWorkflowState {
  status: SosStatus;
  created: boolean;
  transitions: number;
  /** ISO date, set at submission: absolute, so it survives continue-as-new. */
  evaluationDueAt: string | null;
  escalated: boolean;
}

export interface CreateSosArgs { actor: MachineActor; data: SosNewData }
export interface SosTransitionArgs { action: SosAction; actor: MachineActor; reason?: string; protocollo?: string }

export interface SosRecord {
  id: string;
  cod_azienda: string;
  cod_segnalazione: string;
  tipo: string;
  sostituisce_id: string | null;
  stato: SosStatus;
  origine: string;
  origine_ref: string | null;
  cod_anagrafe: string;
  oggetto: string;
  descrizione: string;
  reporter: string;
  reporter_username: string;
  valutatore: string | null;
  motivazione_archiviazione: string | null;
  protocollo_uif: string | null;
  trasmessa_at: string | Date | null;
  valutazione_giorni: number;
  valutazione_scadenza: string | Date | null;
  escalated: boolean;
  workflow_id: string;
  created_at: string | Date;
  updated_at: string | Date;
  closed_at: string | Date | null;
}

export interface SosReply { state: SosWorkflowState; record: SosRecord | null }

export const createSosUpdate = defineUpdate<SosReply, [CreateSosArgs]>('createSos');
export const sosTransitionUpdate = defineUpdate<SosReply, [SosTransitionArgs]>('transition');
export const sosStateQuery = defineQuery<SosWorkflowState>('state');

export interface SosCreation { codAzienda: string; sosId: string; workflowId: string; actor: MachineActor; data: SosNewData; evaluationDays: number }

export interface SosProjection {
  codAzienda: string;
  sosId: string;
  /** Idempotency key: the timeline event's id. */
  transitionId: string;
  action: SosAction;
  from: SosStatus;
  to: SosStatus;
  actor: MachineActor;
  reason?: string;
  protocollo?: string;
  /** Set by submit: when the evaluation term ends. */
  evaluationDueAt?: string | null;
}

export interface SosEscalation { codAzienda: string; sosId: string; dueAt: string }
