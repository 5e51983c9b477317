// Assessments (part ASSESS): what the risk pages (part VIEWS), the area registration and the tests use.
export {
  assessmentAllowedActions, queueAssessment, romeMidnight, startAssessment, transitionAssessment, uuidFromKey,
  type AssessmentDeps, type StartAssessmentRequest, type TransitionInput,
} from './assessment.commands';
export { openCaseFromAssessment, type OpenCaseFromAssessmentRequest } from './assessment.case';
export { assessmentDiagram } from './assessment.diagram';
export { explainAssessment } from './assessment.explain';
export {
  VALUTAZIONE_AZIONE_LABELS, VALUTAZIONE_MOTIVO_LABELS, VALUTAZIONE_STATO_LABELS, VALUTAZIONE_STATO_TONES,
} from './assessment.labels';
export { assessmentsList } from './assessment.list';
export { assessmentAudit, assessmentHistory, getAssessment, listAssessments, type AssessmentListQuery, type AssessmentRow, type HistoryPoint } from './assessment.repo';
export { assessmentView, registerAssessmentRoutes } from './assessment.routes';
export { assessmentListResponse, assessmentViewSchema, explainabilityResponse, listAssessmentsQuery, overrideSchema } from './assessment.schemas';
export { riskAssessmentMachine, RISK_ASSESSMENT_STATES, RISK_ASSESSMENT_USER_ACTIONS, type RiskAssessmentStatus, type RiskAssessmentUserAction } from '../../../../workflows/risk/risk-assessment.machine';
export { markRiskEvents, pendingRiskEvents, RISK_OUTPUT_FIELDS, type RiskEvent } from './assessment.events';
