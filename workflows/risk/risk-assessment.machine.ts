import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';

export const RISK_ASSESSMENT_STATES = ['draft', 'completed', 'override_pending', 'overridden', 'released', 'archived'] as const;
export type RiskAssessmentStatus = (typeof RISK_ASSESSMENT_STATES)[number];

export const RISK_ASSESSMENT_ACTIONS = ['calculate', 'override', 'complete-override', 'release', 'archive'] as const;
export type RiskAssessmentAction = (typeof RISK_ASSESSMENT_ACTIONS)[number];

/** The actions a person asks for through the API and the pages (calculate is the workflow's own first step). */
export const RISK_ASSESSMENT_USER_ACTIONS = ['override', 'complete-override', 'release', 'archive'] as const;
export type RiskAssessmentUserAction = (typeof RISK_ASSESSMENT_USER_ACTIONS)[number];

/**
 * Risk assessment (valutazione), as in docs/processes.md. The override is an analyst's (or a
 * compliance officer's) judgement against the engine's class, with a reason; a compliance officer
 * who is not its author confirms it (four-eyes). An override is also possible on a released
 * assessment: an assessment that raises the class is released at once by the system, and the
 * analyst's disagreement must still have a way in (docs/risk-assessments.md, release policy).
 * Archive is by hand (co) or by the system when the next released assessment supersedes it.
 */
export const riskAssessmentMachine: MachineDef<RiskAssessmentStatus, RiskAssessmentAction> = {
  name: 'risk-assessment',
  initial: 'draft',
  states: RISK_ASSESSMENT_STATES,
  final: ['archived'],
  transitions: [
    { action: 'calculate', from: ['draft'], to: 'completed', roles: PROCESS_WRITERS },
    { action: 'override', from: ['completed', 'released'], to: 'override_pending', roles: ['analyst', 'co'], requires: ['classe', 'motivo'] },
    { action: 'complete-override', from: ['override_pending'], to: 'overridden', roles: ['co'], fourEyes: { against: 'override_by' } },
    { action: 'release', from: ['completed', 'overridden'], to: 'released', roles: ['analyst', 'co'] },
    { action: 'archive', from: ['completed', 'released'], to: 'archived', roles: ['co'] },
  ],
};
