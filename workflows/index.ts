// The worker bundles this file: export every process's workflow.
export { caseWorkflow } from './case/case.workflow';
export { screeningImportWorkflow } from './screening/screening-import.workflow';
export { screeningBatchWorkflow } from './screening/screening-batch.workflow';
export { esignCeremonyWorkflow } from './esign/esign.workflow';
export { onboardingCaseWorkflow } from './onboarding/onboarding.workflow';
export { cddReviewWorkflow } from './cdd/cdd-review.workflow';
export { messageDeliveryWorkflow, outboxSweepWorkflow } from './outbox/outbox.workflow';
