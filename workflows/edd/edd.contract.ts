import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { EddAction, EddStatus } from './edd.machine';

/** The one place that builds an EDD case's workflow id: `edd:<cod_azienda>:<id>`. */
export const eddWorkflowId = (codAzienda: string, eddId: string) => `edd:${codAzienda}:${eddId}`;
export const EDD_WORKFLOW_TYPE = 'eddWorkflow';
export const EDD_RECORD_TYPE = 'edd';

/** Why enhanced measures apply (art. 24 d.lgs. 231/2007 and its annex, Bank of Italy 2019 provisions). */
export const EDD_MOTIVI = ['pep', 'paese_alto_rischio', 'classe_rischio_alta', 'operativita_anomala', 'altro'] as const;
export type EddMotivo = (typeof EDD_MOTIVI)[number];

/** The kinds of enhanced measure a step is (art. 25 d.lgs. 231/2007). */
export const EDD_STEP_TIPI = [
  'informazioni_cliente', 'informazioni_titolari', 'scopo_natura_rapporto', 'origine_fondi', 'origine_patrimonio',
  'approvazione_alta_direzione', 'monitoraggio_rafforzato', 'altro',
] as const;
export type EddStepTipo = (typeof EDD_STEP_TIPI)[number];

export interface EddStepInput {
  /** Chosen by the caller (derived from the request's Idempotency-Key): a retry adds nothing twice. */
  id: string;
  tipo: EddStepTipo;
  titolo: string;
  descrizione: string;
  assegnatario?: string | null;
  /** ISO date (yyyy-mm-dd). */
  scadenza?: string | null;
}

export interface EddNewData {
  cod_anagrafe: string;
  motivi: EddMotivo[];
  descrizione: string;
  cdd_pratica_id?: string | null;
  /** The steps the case opens with: the standard measures for its reasons, as the analyst kept them. */
  steps: EddStepInput[];
}

export interface EddWorkflowInput {
  codAzienda: string;
  eddId: string;
  /** Set when continuing as new. */
  state?: EddWorkflowState;
}

export interface EddStepState { id: string; open: boolean }

export interface EddWorkflowState {
  status: EddStatus;
  created: boolean;
  transitions: number;
  /** Actor id of who submitted for approval: the supervisor must be someone else. */
  submittedBy: string | null;
  steps: EddStepState[];
}

export interface CreateEddArgs {
  actor: MachineActor;
  data: EddNewData;
}

export interface EddTransitionArgs {
  action: EddAction;
  actor: MachineActor;
  reason?: string;
  step?: EddStepInput;
  step_id?: string;
  esito?: string;
  riferimento_evidenza?: string | null;
}

/** The row of the case as its projection left it (dates as ISO strings once serialised). */
export interface EddRecord {
  id: string;
  cod_azienda: string;
  cod_edd: string;
  cod_anagrafe: string;
  cdd_pratica_id: string | null;
  motivi: EddMotivo[];
  descrizione: string;
  stato: EddStatus;
  opened_by: string;
  submitted_by: string | null;
  submitted_at: string | Date | null;
  approved_by: string | null;
  approved_at: string | Date | null;
  motivo_respingimento: string | null;
  closed_by: string | null;
  closed_at: string | Date | null;
  nota_chiusura: string | null;
  workflow_id: string;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface EddStepRecord {
  id: string;
  edd_id: string;
  ordine: number;
  tipo: EddStepTipo;
  titolo: string;
  descrizione: string;
  assegnatario: string | null;
  scadenza: string | Date | null;
  stato: 'aperto' | 'completato';
  esito: string | null;
  riferimento_evidenza: string | null;
  completed_by: string | null;
  completed_at: string | Date | null;
  created_by: string;
  created_at: string | Date;
}

/** What an update answers: the state and the rows the projection wrote (null for a repeated create). */
export interface EddReply {
  state: EddWorkflowState;
  record: EddRecord | null;
  /** The step the transition added or completed. */
  step?: EddStepRecord;
}

export const createEddUpdate = defineUpdate<EddReply, [CreateEddArgs]>('createEdd');
export const eddTransitionUpdate = defineUpdate<EddReply, [EddTransitionArgs]>('transition');
export const eddStateQuery = defineQuery<EddWorkflowState>('state');

/** Refusals of the EDD's own guards (besides the machine's): their HTTP answers are in src/domains/edd/edd.commands.ts. */
export const EDD_FAILURES = {
  stepsOpen: 'STEPS_OPEN',
  noSteps: 'NO_STEPS',
  stepNotFound: 'STEP_NOT_FOUND',
  stepCompleted: 'STEP_COMPLETED',
  stepExists: 'STEP_EXISTS',
  notFound: 'EDD_NOT_FOUND',
} as const;

export interface EddCreation {
  codAzienda: string;
  eddId: string;
  workflowId: string;
  actor: MachineActor;
  data: EddNewData;
}

/** What the projection activity receives for one transition. */
export interface EddProjection {
  codAzienda: string;
  eddId: string;
  /** Idempotency key: the audit event carries it, so a retried activity writes nothing twice. */
  transitionId: string;
  action: EddAction;
  from: EddStatus;
  to: EddStatus;
  actor: MachineActor;
  reason?: string;
  step?: EddStepInput;
  step_id?: string;
  esito?: string;
  riferimento_evidenza?: string | null;
}
