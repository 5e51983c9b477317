/** The dossier PDF's page geometry and the formats it prints values in (Italian, Europe/Rome). */

type Doc = PDFKit.PDFDocument;
export const MARGIN = 50;
const FOOTER_GAP = 30;
const TZ = 'Europe/Rome';
export const dateIt = (v: string | Date | null | undefined) => (v ? new Date(String(v).length === 10 ? `${String(v)}T12:00:00Z` : v).toLocaleDateString('it-IT', { timeZone: TZ }) : '—');
export const dateTimeIt = (v: string | Date) => new Date(v).toLocaleString('it-IT', { timeZone: TZ, dateStyle: 'short', timeStyle: 'short' });
export const euro = (n: number) => `${n.toLocaleString('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} €`;

/** The footer every page carries: where it is in the whole, when it was generated, which dossier. */
export const pageFooter = (n: number, total: number, meta: { dossierId: string; generatedAt: Date }) =>
  `Pagina ${n} di ${total} · Generato il ${dateTimeIt(meta.generatedAt)} · Fascicolo ${meta.dossierId}`;

/** Room for `h` points on this page, or a new page. */
export function ensureSpace(doc: Doc, h: number) {
  if (doc.y + h > doc.page.height - MARGIN - FOOTER_GAP) doc.addPage();
}

