import { z } from 'zod';
import type { Access } from '../kit/access';
import { CSRF_RULE } from './csrf';

const IDEMPOTENCY_DOC = 'Chiave scelta dal client (per esempio un UUID) per ripetere in sicurezza una scrittura: una ripetizione con la stessa chiave riceve la prima risposta (intestazione Idempotent-Replayed: true) e non applica nulla due volte. La stessa chiave con una richiesta diversa: 422; mentre la prima è in corso: 409 con Retry-After. Le risposte 5xx e 429 non sono conservate.';

export interface OpenApiOperation {
  method: string;
  path: string; // koa style (:id)
  summary: string;
  tags: string[];
  access: Access;
  body?: z.ZodType;
  multipart?: boolean;
  query?: z.ZodType;
  response?: z.ZodType;
  successStatus: number;
  otherResponses?: Record<number, z.ZodType>;
}

const API_DESCRIPTION = [
  'API JSON della piattaforma. Gli errori sono problem details (RFC 9457, application/problem+json) qualunque sia il tipo della richiesta;',
  'un testo che PostgreSQL non può memorizzare (carattere NUL, surrogati UTF-16 isolati) è rifiutato con 422 che nomina il campo;',
  'un metodo non previsto su un indirizzo esistente risponde 405 con Allow.',
  'Ogni scrittura accetta l\'intestazione Idempotency-Key: ripetuta con la stessa chiave riceve la prima risposta e non applica nulla due volte.',
  'Un servizio momentaneamente non disponibile (database, Temporal) risponde 503 con Retry-After: nulla è cambiato, la richiesta si può ripetere.',
  '',
  CSRF_RULE,
].join('\n');

/** Collected as routes are declared, so the document cannot drift from the validation. */
export class OpenApiRegistry {
  private readonly ops = new Map<string, OpenApiOperation>();

  add(op: OpenApiOperation) {
    this.ops.set(`${op.method} ${op.path}`, op);
  }

  document(info: { title: string; version: string }) {
    const paths: Record<string, Record<string, unknown>> = {};
    const problem = { $ref: '#/components/schemas/Problem' };
    for (const op of [...this.ops.values()].sort((a, b) => a.path.localeCompare(b.path))) {
      const oaPath = op.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const params: Record<string, unknown>[] = [...op.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) && op.path.startsWith('/api/')) {
        params.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }, description: IDEMPOTENCY_DOC });
      }
      if (op.query) {
        const js = z.toJSONSchema(op.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, schema] of Object.entries(js.properties ?? {})) params.push({ name, in: 'query', required: (js.required ?? []).includes(name), schema });
      }
      const responses: Record<string, unknown> = {
        [String(op.successStatus)]: {
          description: 'OK',
          content: op.response ? { 'application/json': { schema: z.toJSONSchema(op.response, { io: 'output', unrepresentable: 'any' }) } } : undefined,
        },
        default: { description: 'Problem details (RFC 9457)', content: { 'application/problem+json': { schema: problem } } },
      };
      for (const [status, schema] of Object.entries(op.otherResponses ?? {})) {
        responses[status] = { description: 'OK', content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) } } };
      }
      // No content: nothing to describe (the 'OK' entry above would claim a body).
      if (op.successStatus === 204) responses['204'] = { description: 'Nessun contenuto' };
      (paths[oaPath] ??= {})[op.method.toLowerCase()] = {
        summary: op.summary,
        tags: op.tags,
        parameters: params.length ? params : undefined,
        requestBody: op.body ? { required: true, content: { [op.multipart ? 'multipart/form-data' : 'application/json']: { schema: z.toJSONSchema(op.body, { io: 'input', unrepresentable: 'any' }) } } } : undefined,
        responses,
        security: op.access.callers.includes('staff') ? undefined : [],
        'x-callers': op.access.callers,
        'x-roles': op.access.callers.includes('staff') ? op.access.roles : undefined,
      };
    }
    return {
      openapi: '3.1.0',
      info: { ...info, description: API_DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'cp_sid', description: `Sessione del personale (POST /auth/login). ${CSRF_RULE}` },
        },
        schemas: {
          Problem: {
            type: 'object',
            properties: {
              type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, code: { type: 'string' },
              errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
              allowed_actions: { type: 'array', items: { type: 'string' } },
            },
            required: ['type', 'title', 'status', 'code'],
          },
        },
      },
      security: [{ session: [] }],
      paths,
    };
  }
}
