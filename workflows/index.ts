// The worker bundles this file: export every process's workflow.
export {};
