import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { TravelRuleAction, TravelRuleStatus } from './travel-rule.machine';

/** The one place that builds a transfer's workflow id: `travel-rule:<cod_azienda>:<id>`. */
export const travelRuleWorkflowId = (codAzienda: string, transferId: string) => `travel-rule:${codAzienda}:${transferId}`;
export const TRAVEL_RULE_WORKFLOW_TYPE = 'travelRuleWorkflow';
export const TRAVEL_RULE_RECORD_TYPE = 'travel_rule';

/** The platform acting on the tenant's behalf (the deadline of a held transfer). */
export const TRAVEL_RULE_SYSTEM_ACTOR: MachineActor = { id: 'system', username: 'system', roles: ['co'] };

/**
 * Days a held transfer waits for the missing information before the platform returns it
 * (incoming) or rejects it (outgoing): art. 17(1) leaves the deadline to the provider's
 * risk-based procedures; this is the platform's (docs/travel-rule.md).
 */
export const TRAVEL_RULE_HOLD_DAYS = 5;

export type Direzione = 'in_uscita' | 'in_entrata';

export interface ProvaControlloInput { messaggio: string; firma: string }

export interface TravelRuleNewData {
  direzione: Direzione;
  cod_anagrafe: string | null;
  asset: string;
  rete: string | null;
  /** Decimal as text: numeric(38,18) keeps every digit a token amount has. */
  importo: string;
  importo_eur: number | null;
  tx_hash: string | null;
  indirizzo_originatore: string | null;
  indirizzo_beneficiario: string;
  tipo_wallet: 'vasp' | 'self_hosted';
  vasp_controparte: string | null;
  prova_controllo: ProvaControlloInput | null;
  ivms101: Record<string, unknown>;
  riferimento_esterno: string | null;
}

export interface TravelRuleWorkflowInput {
  codAzienda: string;
  transferId: string;
  /** Set when continuing as new. */
  state?: TravelRuleWorkflowState;
}

export interface TravelRuleWorkflowState {
  status: TravelRuleStatus;
  created: boolean;
  /** The create was refused for good (unknown customer, a reference another transfer holds): the run ends. */
  refused: boolean;
  transitions: number;
  codTransazione: string | null;
  direzione: Direzione | null;
  /** While held: when the platform gives up waiting for the missing data (ISO instant). */
  heldUntil: string | null;
}

export interface CreateTravelRuleArgs {
  actor: MachineActor;
  data: TravelRuleNewData;
}

export interface TravelRuleTransitionArgs {
  action: TravelRuleAction;
  actor: MachineActor;
  /** The reason of a decision (required by hold, return and reject). */
  motivo?: string;
  /** complete: the whole IVMS101 payload again, with the missing data. */
  ivms101?: Record<string, unknown>;
  prova_controllo?: ProvaControlloInput | null;
  indirizzo_originatore?: string | null;
}

/** The row as its projection left it (dates as ISO strings once serialised). */
export interface TravelRuleRecord extends Omit<TravelRuleNewData, 'importo_eur'> {
  id: string;
  cod_azienda: string;
  cod_transazione: string;
  /** numeric(20,2) as the driver reads it: text. */
  importo_eur: string | null;
  stato: TravelRuleStatus;
  screening: unknown;
  screened_at: string | Date | null;
  screened_by: string | null;
  decisione: string | null;
  motivo: string | null;
  regole: unknown[];
  informazioni_mancanti: unknown[];
  decided_by: string | null;
  decided_at: string | Date | null;
  workflow_id: string;
  created_by: string;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface TravelRuleReply {
  state: TravelRuleWorkflowState;
  /** null for a repeated create. */
  record: TravelRuleRecord | null;
}

export const createTravelRuleUpdate = defineUpdate<TravelRuleReply, [CreateTravelRuleArgs]>('createTravelRule');
export const travelRuleTransitionUpdate = defineUpdate<TravelRuleReply, [TravelRuleTransitionArgs]>('transition');
export const travelRuleStateQuery = defineQuery<TravelRuleWorkflowState>('state');

export const TRAVEL_RULE_FAILURES = {
  notFound: 'TRAVEL_RULE_NOT_FOUND',
  customerNotFound: 'CUSTOMER_NOT_FOUND',
  /** Another transfer of the tenant holds this riferimento_esterno. */
  duplicateReference: 'DUPLICATE_REFERENCE',
  /** The rules allow only a stricter decision than the one asked for. */
  decisionNotAllowed: 'DECISION_NOT_ALLOWED',
} as const;

export interface TravelRuleCreation {
  codAzienda: string;
  transferId: string;
  workflowId: string;
  actor: MachineActor;
  data: TravelRuleNewData;
}

/** What a transition's projection receives. */
export interface TravelRuleProjection {
  codAzienda: string;
  transferId: string;
  /** Idempotency key: the audit event carries it, so a retried activity writes nothing twice. */
  transitionId: string;
  action: TravelRuleAction;
  from: TravelRuleStatus;
  to: TravelRuleStatus;
  actor: MachineActor;
  motivo?: string;
  ivms101?: Record<string, unknown>;
  prova_controllo?: ProvaControlloInput | null;
  indirizzo_originatore?: string | null;
  /** The platform's own decision (the deadline passed): recorded as such, not checked against a person's choice. */
  automatico?: boolean;
}
