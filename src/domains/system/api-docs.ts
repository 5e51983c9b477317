import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';
import { ROLE_LABELS, type Role } from '../../kit/roles';

export const API_TITLE = 'Compliance AML API';

/** The product version, as released (package.json). */
export const appVersion: string = (() => {
  try {
    return (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();

interface OaOperation {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  'x-roles'?: string[] | 'any';
  'x-callers'?: string[];
  security?: unknown[];
}

export interface DocOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  public: boolean;
  roles: { code: string; label: string }[];
  /** Who may call besides staff (the applicant, a signer), in Italian. */
  callers: string[];
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestSchema?: unknown;
  successStatus?: string;
  responseSchema?: unknown;
}

const CALLER_LABELS: Record<string, string> = {
  applicant: 'Cliente (sessione della pratica)', signer: 'Firmatario (token di firma)', 'second-factor': 'Accesso in corso (secondo fattore)',
};

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** The OpenAPI document as the docs page shows it: operations grouped by tag, in path order. */
export function docsModel(doc: { paths: Record<string, Record<string, unknown>> }) {
  const groups = new Map<string, DocOperation[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of METHOD_ORDER) {
      const op = ops[method] as OaOperation | undefined;
      if (!op) continue;
      const success = Object.keys(op.responses ?? {}).find((k) => /^2\d\d$/.test(k));
      const entry: DocOperation = {
        id: `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, ''),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        public: Array.isArray(op.security) && op.security.length === 0,
        roles: op['x-roles'] === 'any' ? [{ code: 'any', label: 'Qualsiasi utente' }] : (op['x-roles'] ?? []).map((r) => ({ code: r, label: ROLE_LABELS[r as Role] ?? r })),
        callers: (op['x-callers'] ?? []).filter((c) => c !== 'staff' && c !== 'public').map((c) => CALLER_LABELS[c] ?? c),
        parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema })),
        requestSchema: op.requestBody?.content?.['application/json']?.schema,
        successStatus: success,
        responseSchema: success ? op.responses?.[success]?.content?.['application/json']?.schema : undefined,
      };
      for (const tag of op.tags?.length ? op.tags : ['Altro']) {
        const list = groups.get(tag) ?? [];
        list.push(entry);
        groups.set(tag, list);
      }
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'it'))
    .map(([tag, operations]) => ({ tag, id: `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`, operations }));
}

/** A one-line type for a parameter's schema ("string", "integer ≥ 0", "enum: a | b"). */
export function schemaSummary(schema: unknown): string {
  const s = (schema ?? {}) as { type?: string | string[]; enum?: unknown[]; format?: string; default?: unknown; minimum?: number; maximum?: number; anyOf?: unknown[] };
  if (s.enum) return `enum: ${s.enum.join(' | ')}`;
  if (s.anyOf) return s.anyOf.map(schemaSummary).join(' | ');
  const parts = [Array.isArray(s.type) ? s.type.join(' | ') : s.type ?? 'any'];
  if (s.format) parts.push(`(${s.format})`);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(' ');
}
