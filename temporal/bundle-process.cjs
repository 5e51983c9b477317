// Bundles the workflow code in a process of its own (see temporal/bundle.ts): webpack's memory
// leaves with this process instead of staying in the worker's. Argument: the entry file;
// sends { code } or { error } to the parent.
const { bundleWorkflowCode } = require('@temporalio/worker');

const quiet = { trace() {}, debug() {}, info() {}, log() {}, warn: console.warn, error: console.error };
bundleWorkflowCode({ workflowsPath: process.argv[2], logger: quiet })
  .then((bundle) => process.send({ code: bundle.code }, () => process.exit(0)))
  .catch((err) => process.send({ error: String(err && err.stack || err) }, () => process.exit(1)));
