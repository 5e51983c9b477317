/** Reads the published OpenAPI document into the operations tests walk, so new routes are covered by themselves. */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  [k: string]: unknown;
};

export interface Operation {
  method: string;
  /** OpenAPI style, {param}. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body?: { mediaType: string; schema: JsonSchema };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, {
    parameters?: { name: string; in: string; schema: JsonSchema }[];
    requestBody?: { content: Record<string, { schema: JsonSchema }> };
    responses: Operation['responses'];
    security?: unknown[];
  }>>;
  components: { schemas: Record<string, JsonSchema> };
  [k: string]: unknown;
}

export function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      out.push({
        method: method.toUpperCase(), path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body: mediaType && content ? { mediaType, schema: content.schema } : undefined,
        responses: op.responses, security: op.security,
      });
    }
  }
  return out;
}

const accepts = (s: JsonSchema, type: string) => s.type === undefined ? !s.properties && !s.items && !s.anyOf && !s.oneOf && !s.allOf : [s.type].flat().includes(type);

/**
 * Every place in a body where a string may go, as key paths: properties, list items ('0'),
 * and the free keys of a record ('campo'). A schema that accepts anything accepts a string.
 */
export function stringFieldPaths(schema: JsonSchema | undefined, path: string[] = [], depth = 0): string[][] {
  if (!schema || depth > 6) return [];
  const found: string[][] = [];
  if (path.length && (accepts(schema, 'string') || typeof schema.const === 'string' || schema.enum?.some((v) => typeof v === 'string'))) found.push(path);
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...stringFieldPaths(sub, path, depth + 1));
  for (const [k, sub] of Object.entries(schema.properties ?? {})) found.push(...stringFieldPaths(sub, [...path, k], depth + 1));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') found.push(...stringFieldPaths(schema.additionalProperties, [...path, 'campo'], depth + 1));
  else if (schema.additionalProperties === true) found.push([...path, 'campo']);
  if (schema.items) found.push(...stringFieldPaths(schema.items, [...path, '0'], depth + 1));
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(p.join('.')) && seen.add(p.join('.')));
}

/** A value with `leaf` at the key path (numeric keys make lists). */
export function valueAt(path: string[], leaf: unknown): unknown {
  if (!path.length) return leaf;
  const [head, ...rest] = path;
  const inner = valueAt(rest, leaf);
  return /^\d+$/.test(head!) ? [inner] : { [head!]: inner };
}

/** The path with each {param} replaced. */
export const fillPath = (path: string, value: (param: string) => string) => path.replace(/\{([^}]+)\}/g, (_m, p: string) => value(p));

export const isUnsafe = (method: string) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);

/** One place of a body: its key path (list items as '0') and every schema that describes it there (a union's members too). */
export interface BodyField { path: string[]; schemas: JsonSchema[] }

/** Every property of a body, nested objects and list items included, with what the union members say of each. */
export function bodyFields(schema: JsonSchema | undefined): BodyField[] {
  const byPath = new Map<string, BodyField>();
  const visit = (s: JsonSchema | undefined, path: string[], depth: number) => {
    if (!s || depth > 8) return;
    if (path.length) {
      const key = path.join('.');
      const field = byPath.get(key) ?? { path, schemas: [] };
      field.schemas.push(s);
      byPath.set(key, field);
    }
    for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) visit(sub, path, depth + 1);
    for (const [k, sub] of Object.entries(s.properties ?? {})) visit(sub, [...path, k], depth + 1);
    if (s.items) visit(s.items, [...path, '0'], depth + 1);
  };
  visit(schema, [], 0);
  return [...byPath.values()];
}

/** The record kind a body field is declared to name (`x-reference`, src/db/references.ts), if any. */
export const referenceOf = (f: BodyField): string | undefined => f.schemas.map((s) => s['x-reference']).find((r): r is string => typeof r === 'string');

/** A copy of `body` with `value` at the key path (list items by index). */
export function withValueAt(body: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (Array.isArray(body)) {
    const copy = [...body];
    copy[Number(head)] = withValueAt(copy[Number(head)], rest, value);
    return copy;
  }
  const obj = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return { ...obj, [head!]: withValueAt(obj[head!], rest, value) };
}
