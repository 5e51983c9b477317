// Reads schemathesis' NDJSON event stream (--report ndjson) into the figures `npm run fuzz` prints.

interface Check { name: string; status: string; failure_info?: { failure?: { title?: string; message?: string; operation?: string } } }
interface Interaction { request?: { method?: string; uri?: string }; response?: { status_code?: number } | null }
interface ScenarioFinished {
  status: string;
  recorder: { label: string; checks?: Record<string, Check[]>; interactions?: Record<string, Interaction> };
}

export interface FuzzFigures {
  operations: number;
  operations_tested: number;
  requests: number;
  server_errors: number;
  schema_violations: number;
  other_failures: number;
  errors: number;
  failures: number;
  /** One line per distinct failure (operation, check, title), for the reader to start from. */
  findings: string[];
}

export function summariseFuzzReport(ndjson: string): FuzzFigures {
  let operations = 0;
  let errors = 0;
  const tested = new Set<string>();
  const requests = new Set<string>();
  const serverErrors = new Set<string>();
  const failed = new Map<string, Set<string>>();
  const findings = new Map<string, string>();
  const fail = (check: string, key: string) => (failed.get(check) ?? failed.set(check, new Set()).get(check)!).add(key);
  for (const line of ndjson.split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Record<string, unknown>;
    const loaded = event.LoadingFinished as { statistic?: { operations?: { selected?: number } } } | undefined;
    if (loaded) operations = loaded.statistic?.operations?.selected ?? 0;
    const done = event.ScenarioFinished as ScenarioFinished | undefined;
    if (!done) continue;
    const { label, checks = {}, interactions = {} } = done.recorder;
    if (done.status === 'error') errors += 1;
    if (done.status !== 'skip') tested.add(label);
    for (const [id, i] of Object.entries(interactions)) {
      requests.add(id);
      if ((i.response?.status_code ?? 0) >= 500) serverErrors.add(id);
    }
    for (const [id, list] of Object.entries(checks)) {
      for (const c of list) {
        if (c.status === 'success' || c.status === 'skip') continue;
        fail(c.name, id);
        const f = c.failure_info?.failure;
        const key = `${label} ${c.name} ${f?.title ?? ''}`;
        if (!findings.has(key)) findings.set(key, `${label}: ${c.name}: ${f?.title ?? c.status}${f?.message ? ` — ${f.message.split('\n')[0]}` : ''}`);
      }
    }
  }
  const schemaViolations = failed.get('response_schema_conformance')?.size ?? 0;
  const other = [...failed].filter(([name]) => name !== 'response_schema_conformance' && name !== 'not_a_server_error').reduce((n, [, ids]) => n + ids.size, 0);
  const server = Math.max(serverErrors.size, failed.get('not_a_server_error')?.size ?? 0);
  return {
    operations, operations_tested: tested.size, requests: requests.size, server_errors: server, schema_violations: schemaViolations,
    other_failures: other, errors, failures: server + schemaViolations + other + errors, findings: [...findings.values()].sort(),
  };
}
