/** The sweep that turns events (a new screening match, changed customer data, a CDD completed) into risk assessments. */
export const RISK_EVENTS_WORKFLOW_TYPE = 'riskEventsSweepWorkflow';
export const RISK_EVENTS_SCHEDULE_ID = 'risk-events';

export interface RiskEventsTenantResult {
  codAzienda: string;
  /** Assessments started by this run (one per customer with events). */
  started: number;
  /** Events turned into those assessments. */
  events: number;
  /** Customers whose assessment could not start (logged; their events stay pending for the next run). */
  failed: number;
}
