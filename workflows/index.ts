// The worker bundles this file: export every process's workflow.
export { caseWorkflow } from './case/case.workflow';
