import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FilingFinding } from './rules';

/**
 * The FIU's answer to a submitted report. goAML publishes no schema for it, so this module
 * is the one place that knows its layout (swap it for an FIU's own export):
 *
 *   <report_return>
 *     <entity_reference>STR-2026-0042</entity_reference>   our reference, as sent
 *     <fiu_ref_number>FIU-2026-000123</fiu_ref_number>     the FIU's number (acknowledged)
 *     <status>ACCEPTED | REJECTED</status>
 *     <status_date>2026-05-27T09:00:00</status_date>
 *     <errors><error><code>..</code><field>..</field><message>..</message></error></errors>
 *   </report_return>
 *
 * goAML Web's status words are accepted too (Processed/Accepted -> acknowledged,
 * Rejected/Failed -> returned). Pure.
 */
export interface ParsedReturn {
  outcome: 'acknowledged' | 'returned';
  entityReference: string;
  fiuRefNumber: string | null;
  statusDate: string | null;
  errors: FilingFinding[];
}

export class ReturnFileError extends Error {
  constructor(readonly code: 'RETURN_NOT_XML' | 'RETURN_NOT_GOAML' | 'RETURN_STATUS_UNKNOWN' | 'RETURN_FIELD_MISSING', message: string) {
    super(message);
  }
}

const ACK = new Set(['accepted', 'processed', 'acknowledged']);
const REJ = new Set(['rejected', 'failed', 'returned']);

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name) => name === 'error' });

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function parseReturnFile(xml: string): ParsedReturn {
  if (XMLValidator.validate(xml) !== true) throw new ReturnFileError('RETURN_NOT_XML', 'the return file is not well-formed XML');
  const doc = parser.parse(xml) as { report_return?: Record<string, unknown> };
  const root = doc.report_return;
  if (!root || typeof root !== 'object') throw new ReturnFileError('RETURN_NOT_GOAML', 'the return file has no <report_return> element');
  const status = text(root.status)?.toLowerCase() ?? '';
  const outcome = ACK.has(status) ? 'acknowledged' : REJ.has(status) ? 'returned' : null;
  if (!outcome) throw new ReturnFileError('RETURN_STATUS_UNKNOWN', `status "${text(root.status) ?? ''}" is neither accepted nor rejected`);
  const entityReference = text(root.entity_reference);
  if (!entityReference) throw new ReturnFileError('RETURN_FIELD_MISSING', 'entity_reference is missing');
  const errorsNode = root.errors as { error?: Record<string, unknown>[] } | undefined;
  const errors = (errorsNode?.error ?? []).map((e) => ({
    code: text(e.code) ?? 'FIU_ERROR', path: text(e.field) ?? '', message: text(e.message) ?? '', source: 'return' as const,
  }));
  return { outcome, entityReference, fiuRefNumber: text(root.fiu_ref_number), statusDate: text(root.status_date), errors };
}
