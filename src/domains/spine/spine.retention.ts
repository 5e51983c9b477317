/**
 * The retention rule of art. 31 d.lgs. 231/2007: documents, data and information are kept for ten
 * years from the end of the continuing relationship (or from the occasional operation).
 *
 * Reading taken (docs/document-spine.md): a customer's document is kept until ten years after the
 * last of the customer's relationships ended (held, or with a role on it); while any of them is
 * open the date is not yet determined. A document of no customer, or of a customer without any
 * relationship, counts from its own date (the occasional operation's reading). The SQL function
 * `spine_conserva_fino` (migrations/20261218000100_create_document_spine.ts) applies the same rule
 * where the spine is read; test/api/document-spine.test.ts holds the two equal.
 */
export const RETENTION_YEARS = 10;

export type Retention =
  | { stato: 'aperta'; rapporti_aperti: number }
  | { stato: 'determinata'; fino: string; base: 'fine_rapporti' | 'data_documento'; da: string };

/** `date` (YYYY-MM-DD) plus whole years; 29 February becomes 28 February, as PostgreSQL's interval does. */
export function addYearsIso(date: string, years: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const ty = y + years;
  const last = new Date(Date.UTC(ty, m, 0)).getUTCDate();
  return `${String(ty).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * The retention of one document: `relationships` are the end dates (null: open) of the owner's
 * relationships, `documentDate` the day the document was kept (Europe/Rome).
 */
export function retentionOf(p: { codAnagrafe: string | null; relationships: readonly (string | null)[]; documentDate: string }): Retention {
  if (!p.codAnagrafe || !p.relationships.length) {
    return { stato: 'determinata', fino: addYearsIso(p.documentDate, RETENTION_YEARS), base: 'data_documento', da: p.documentDate };
  }
  const open = p.relationships.filter((r) => r === null).length;
  if (open) return { stato: 'aperta', rapporti_aperti: open };
  const last = (p.relationships as string[]).reduce((a, b) => (b > a ? b : a));
  return { stato: 'determinata', fino: addYearsIso(last, RETENTION_YEARS), base: 'fine_rapporti', da: last };
}

/** Whether the retention has run out on `today` (a document under legal hold is kept anyway). */
export const retentionDue = (r: Retention, today: string): boolean => r.stato === 'determinata' && r.fino <= today;
