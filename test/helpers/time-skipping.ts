import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporalTestServerPath } from '../../temporal/binaries';
import { indexedSearchAttributes } from '../../temporal/search-attributes';

/**
 * Temporal's time-skipping test server from the project's virtualenv (never the SDK's
 * download), with the record search attributes the workflows publish registered.
 */
export async function startTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed */ }
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: temporalTestServerPath() } } });
  // This server cannot list search attributes (ensureSearchAttributes needs to): it is fresh, so add them all.
  await env.connection.operatorService.addSearchAttributes({ namespace: env.namespace ?? 'default', searchAttributes: indexedSearchAttributes() });
  return env;
}
