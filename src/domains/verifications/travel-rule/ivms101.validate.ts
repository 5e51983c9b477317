import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { projectRoot } from '../../../config';
import type { FieldError } from '../../../http/errors';

/**
 * IVMS101 payloads checked against the Global Travel Rule JSON schema (data/ivms101/, copied
 * unchanged with its provenance). Every error names its field as a JSON pointer (RFC 6901) from
 * the request body (`/ivms101/originator/...`), with an Italian message a person can act on:
 * the counterparty's provider is told exactly which datum to resend.
 */

export const IVMS101_SCHEMA_FILE = join(projectRoot, 'data', 'ivms101', 'global-travel-rule.schema.json');

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  // strict: false, as the schema is a community draft-07 file with `title` beside `$ref`; allErrors: every field, not the first.
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(IVMS101_SCHEMA_FILE, 'utf8')) as object);
  return compiled;
}

/** The character rule of the schema's patterns, in words (the schema's own regexes are ASCII only). */
function patternMessage(pattern: string): string {
  const ascii = /^\^\[a-zA-Z0-9' \]\{1,(\d+)\}\$$/.exec(pattern);
  if (ascii) return `Formato non valido: sono ammessi solo lettere senza accenti, cifre, apostrofo e spazio, da 1 a ${ascii[1]} caratteri (traslitterare i caratteri accentati, senza virgole né punti)`;
  const any = /^\^\.\{1,(\d+)\}\$$/.exec(pattern);
  if (any) return `Lunghezza non valida: da 1 a ${any[1]} caratteri su una riga`;
  if (pattern === '^[A-Z]{2}$') return 'Codice paese non valido: due lettere maiuscole ISO 3166-1 alpha-2 (es. IT)';
  if (pattern === '^RA([0-9]{6})$') return 'Autorità di registrazione non valida: codice GLEIF RA seguito da 6 cifre (es. RA000407)';
  if (pattern === '^([0-9]{4})-([0-9]{2})-([0-9]{2})$') return 'Data non valida: formato AAAA-MM-GG';
  return `Formato non valido (atteso ${pattern})`;
}

const TYPE_WORDS: Record<string, string> = { object: 'un oggetto', array: 'un elenco', string: 'un testo', integer: 'un numero intero', number: 'un numero', boolean: 'vero o falso' };

/** One ajv error as the field it names and what is wrong with it. */
export function ivms101FieldError(e: ErrorObject, prefix = '/ivms101'): FieldError {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path: `${prefix}${e.instancePath}/${String(params.missingProperty)}`, message: 'Dato obbligatorio mancante' };
    case 'pattern':
      return { path: `${prefix}${e.instancePath}`, message: patternMessage(String(params.pattern)) };
    case 'enum':
      return { path: `${prefix}${e.instancePath}`, message: `Valore non ammesso: usare uno tra ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'type':
      return { path: `${prefix}${e.instancePath}`, message: `Tipo non valido: atteso ${TYPE_WORDS[String(params.type)] ?? String(params.type)}` };
    case 'minimum':
    case 'maximum':
      return { path: `${prefix}${e.instancePath}`, message: `Valore fuori intervallo (${e.keyword === 'minimum' ? 'minimo' : 'massimo'} ${String(params.limit)})` };
    default:
      return { path: `${prefix}${e.instancePath}`, message: `Dato non valido (${e.keyword})` };
  }
}

export type Ivms101Check = { valid: true } | { valid: false; errors: FieldError[] };

/** Validates one payload; the errors are sorted by field so the answer reads in document order and is stable. */
export function validateIvms101(payload: unknown, prefix = '/ivms101'): Ivms101Check {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { valid: false, errors: [{ path: prefix, message: 'Il messaggio IVMS101 deve essere un oggetto JSON' }] };
  }
  const validate = validator();
  if (validate(payload)) return { valid: true };
  const seen = new Set<string>();
  const errors = (validate.errors ?? []).map((e) => ivms101FieldError(e, prefix))
    .filter((f) => { const k = `${f.path}\u0000${f.message}`; if (seen.has(k)) return false; seen.add(k); return true; })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { valid: false, errors };
}
