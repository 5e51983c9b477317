import type { CeremonyRow } from './esign.service';

const when = (d: Date | string | null | undefined) => (d ? new Date(d).toLocaleString('it-IT', { timeZone: 'Europe/Rome' }) + ' (ora italiana)' : '—');

/** The receipt a person can read: who signed what, when and how, then the signed JWS itself. */
export async function receiptPdf(row: CeremonyRow): Promise<Buffer> {
  // Loaded on first use: pdfkit and its fonts are about 19 MB that a process not signing never needs.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Ricevuta di firma ${row.id}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const line = (label: string, value: string) => { doc.font('Helvetica-Bold').text(label, { continued: true }).font('Helvetica').text(` ${value}`); };
    doc.font('Helvetica-Bold').fontSize(16).text('Ricevuta di firma elettronica').moveDown(0.5).fontSize(10);
    line('Cerimonia:', row.id);
    line('Stato:', row.stato);
    line('Firmatario:', `${row.signer_nome} <${row.signer_email}>`);
    line('Documento:', row.document_name);
    line('SHA-256 del documento:', row.document_sha256 ?? '—');
    line('Avvio:', when(row.created_at));
    line('Condizioni accettate:', when(row.terms_accepted_at));
    line('Documento presentato:', when(row.presented_at));
    line('Firmato:', when(row.signed_at));
    line('Indirizzo IP:', row.ip ?? '—');
    line('Browser (user agent):', row.user_agent ?? '—');
    doc.moveDown().font('Helvetica-Bold').text(`Testo del consenso (versione ${row.consent_version})`).font('Helvetica').text(row.consent_text);
    doc.moveDown().font('Helvetica-Bold').text('Prova firmata (JWS ES256, certificato della piattaforma nell\'intestazione x5c)');
    doc.font('Courier').fontSize(7).text(row.bundle?.jws ?? 'Cerimonia non ancora firmata', { lineBreak: true });
    doc.end();
  });
}
