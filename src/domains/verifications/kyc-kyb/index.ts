// KYC and KYB verifications (part kyc): the contract other parts code against (docs/verifications.md).
export { openVerification, transitionVerification, documentsChanged, startVerificationWorkflow, checksOpenConflict, type VerificationDeps, type TransitionVerificationRequest } from './verification.commands';
export { insertVerification, workflowInputOf, type OpenVerificationRequest } from './verification.open';
export { openOnboardingVerification, type OnboardingVerificationRequest, type OnboardingUpload } from './verification.onboarding';
export { createCheck, updateCheck, updateProfile, CHECK_EDITORS, CHECK_WAIVERS, type CreateCheckRequest, type UpdateCheckRequest } from './verification.checks';
export {
  getVerification, getVerificationRow, listChecks, listVerifications, verificationActions, verificationAudit, verificationDocuments, verificationsForCustomer, viewOf,
  type CheckRow, type VerificationDocument, type VerificationListQuery, type VerificationRow, type VerificationView,
} from './verification.repo';
export { computeDeadline, type Deadline } from './verification.deadline';
export { kybProfileSchema, ATECO_PATTERN, REA_PATTERN, type KybProfile } from './verification.profile';
export { verificationsList } from './verification.list';
export { registerVerificationRoutes, verificationApiView } from './verification.routes';
export { verificationViewSchema, verificationRecordSchema, checkSchema, transitionSchema, updateCheckSchema, createCheckSchema } from './verification.schemas';
export { verificationMachine, VERIFICATION_STATES, VERIFICATION_USER_ACTIONS, VERIFICATION_OPEN_STATES, type VerificationStatus, type VerificationUserAction } from '../../../../workflows/verification/verification.machine';
export { verificationWorkflowId, VERIFICATION_WORKFLOW_TYPE, VERIFICATION_RECORD_TYPE } from '../../../../workflows/verification/verification.contract';
