import { AREAS } from '../src/areas';
import type { AreaDefinition } from '../src/kit/area';
import type { ActivityDeps } from './deps';
import { withDataErrorsNonRetryable } from './lib/data-errors';

type ActivityFn = (...args: never[]) => Promise<unknown>;

/**
 * Every activity of every area of the registry, for the worker. Workflows call them by
 * name, so two areas may not register the same name. A database data error never makes
 * one retry (see lib/data-errors.ts).
 */
export function createActivities(deps: ActivityDeps, areas: readonly AreaDefinition[] = AREAS): Record<string, ActivityFn> {
  const all: Record<string, ActivityFn> = {};
  const owner: Record<string, string> = {};
  for (const area of areas) {
    for (const [name, fn] of Object.entries(area.activities?.(deps) ?? {})) {
      if (owner[name]) throw new Error(`activity ${name} is registered by both ${owner[name]} and ${area.name}`);
      owner[name] = area.name;
      all[name] = fn;
    }
  }
  return withDataErrorsNonRetryable(all);
}
