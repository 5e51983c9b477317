import { SOS_DIREZIONE_LABELS, SOS_ORIGINE_LABELS, SOS_RUOLO_LABELS, SOS_STATO_LABELS, SOS_TIPO_LABELS } from '../sos.labels';
import type { SosContentRows } from '../sos.content';
import type { SosStatus } from '../../../../workflows/sos/sos.machine';

const when = (d: Date | string | null | undefined) => (d ? new Date(d).toLocaleString('it-IT', { timeZone: 'Europe/Rome' }) : '—');
const day = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' });

export interface SosPdfInput {
  report: {
    cod_segnalazione: string; stato: SosStatus; tipo: string; origine: string; origine_ref: string | null; oggetto: string; descrizione: string;
    cod_anagrafe: string; reporter_username: string; valutatore: string | null; protocollo_uif: string | null; created_at: Date | string; trasmessa_at: Date | string | null;
  };
  sostituisce: string | null;
  content: SosContentRows;
  fenomeni: Record<string, string>;
  allegati: { nome_file: string; sha256: string }[];
  comunicazioni: { data: string; direzione: string; oggetto: string; protocollo: string | null }[];
}

/** The report as a person reads it: the same structure as the XML, in Italian, marked confidential on every page. */
export async function sosPdf(x: SosPdfInput): Promise<Buffer> {
  // Loaded on first use, as the other areas do: pdfkit and its fonts are large.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Segnalazione ${x.report.cod_segnalazione}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const r = x.report;
    const line = (label: string, value: string) => { doc.font('Helvetica-Bold').text(label, { continued: true }).font('Helvetica').text(` ${value}`); };
    const heading = (t: string) => doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text(t).fontSize(10).moveDown(0.2);
    doc.font('Helvetica-Bold').fontSize(9).fillColor('#b00020').text('RISERVATO — art. 39 d.lgs. 231/2007: divieto di comunicazione al cliente e a terzi').fillColor('black');
    doc.moveDown(0.5).fontSize(16).text(`Segnalazione di operazione sospetta ${r.cod_segnalazione}`).moveDown(0.5).fontSize(10);
    line('Oggetto:', r.oggetto);
    line('Tipo:', SOS_TIPO_LABELS[r.tipo] ?? r.tipo);
    if (x.sostituisce) line('Sostituisce:', x.sostituisce);
    line('Stato:', SOS_STATO_LABELS[r.stato]);
    line('Origine:', `${SOS_ORIGINE_LABELS[r.origine] ?? r.origine}${r.origine_ref ? ` (${r.origine_ref})` : ''}`);
    line('Soggetto segnalato:', r.cod_anagrafe);
    line('Redatta da:', `${r.reporter_username}, ${when(r.created_at)}`);
    if (r.valutatore) line('Valutata da:', r.valutatore);
    if (r.protocollo_uif) line('Protocollo UIF:', `${r.protocollo_uif} (${when(r.trasmessa_at)})`);
    heading('Soggetti');
    for (const s of x.content.soggetti) doc.font('Helvetica').text(`• ${s.nominativo} — ${SOS_RUOLO_LABELS[s.ruolo] ?? s.ruolo}${s.codice_fiscale ? `, ${s.codice_fiscale}` : ''}`);
    const names = new Map(x.content.soggetti.map((s) => [s.id, s.nominativo]));
    if (x.content.legami.length) {
      heading('Legami tra soggetti');
      for (const l of x.content.legami) doc.text(`• ${names.get(l.soggetto_da)} → ${names.get(l.soggetto_a)}: ${l.tipo}`);
    }
    if (x.content.rapporti.length) {
      heading('Rapporti');
      for (const rp of x.content.rapporti) doc.text(`• ${rp.cod_rapporto ?? ''} ${rp.descrizione}`);
    }
    heading('Operazioni');
    if (!x.content.operazioni.length) doc.text('Nessuna operazione');
    for (const o of x.content.operazioni) {
      doc.text(`• ${day(o.data_operazione)}  ${Number(o.importo).toLocaleString('it-IT', { minimumFractionDigits: 2 })} ${o.valuta}${o.segno ? `  ${o.segno}` : ''}${o.causale ? `  ${o.causale}` : ''}${o.cod_alert ? `  (alert ${o.cod_alert})` : ''}`);
    }
    heading('Fenomeni');
    if (!x.content.fenomeni.length) doc.text('Nessuno');
    for (const f of x.content.fenomeni) doc.text(`• ${f.codice} — ${x.fenomeni[f.codice] ?? ''}`);
    heading('Indicatori di anomalia (Provvedimento UIF 12 maggio 2023)');
    if (!x.content.indicatori.length) doc.text('Nessuno');
    for (const i of x.content.indicatori) doc.text(`• Indicatore ${i.indicatore}${i.sottoindice ? `, sub-indice ${i.sottoindice}` : ''}`);
    heading('Descrizione');
    doc.text(r.descrizione || '—');
    if (x.allegati.length) {
      heading('Allegati');
      for (const a of x.allegati) doc.text(`• ${a.nome_file} (SHA-256 ${a.sha256})`);
    }
    if (x.comunicazioni.length) {
      heading('Comunicazioni con la UIF');
      for (const c of x.comunicazioni) doc.text(`• ${day(c.data)} ${SOS_DIREZIONE_LABELS[c.direzione] ?? c.direzione}: ${c.oggetto}${c.protocollo ? ` (prot. ${c.protocollo})` : ''}`);
    }
    doc.end();
  });
}
