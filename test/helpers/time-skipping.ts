import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporalTestServerPath } from '../../temporal/binaries';
import { searchAttributeDefinitions } from '../../temporal/search-attributes';

/**
 * Temporal's time-skipping test server from the project's virtualenv (never the SDK's
 * download), with the record search attributes the workflows publish registered.
 */
export async function startTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed */ }
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: temporalTestServerPath() } } });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.keys(searchAttributeDefinitions).map((k) => [k, 2 /* KEYWORD */])),
  }).catch(() => undefined);
  return env;
}
