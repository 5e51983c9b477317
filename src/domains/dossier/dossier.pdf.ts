import type { DossierSection } from '../../../workflows/dossier/dossier.sections';
import type { DossierData } from './dossier.data';
import type { DossierStructure } from './dossier.structure';
import { drawMovementsChart, drawOwnershipChain, drawOwnershipStructure } from './dossier.drawings';
import { DOSSIER_SECTION_LABELS } from './dossier.labels';
import { dateIt, dateTimeIt, ensureSpace, euro, MARGIN, pageFooter } from './dossier.layout';

export interface DossierPdfMeta {
  dossierId: string;
  codAzienda: string;
  ragioneSociale: string;
  generatedAt: Date;
  generatedBy: string;
  sections: readonly DossierSection[];
}

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, text: string) {
  ensureSpace(doc, 60);
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#1d3557').text(text, MARGIN).fillColor('black');
  const y = doc.y + 2;
  doc.moveTo(MARGIN, y).lineTo(doc.page.width - MARGIN, y).lineWidth(0.5).strokeColor('#1d3557').stroke().strokeColor('black');
  doc.moveDown(0.4).font('Helvetica').fontSize(9.5);
}

const none = (doc: Doc, text: string) => doc.font('Helvetica-Oblique').fontSize(9.5).fillColor('#555555').text(text, MARGIN).fillColor('black').font('Helvetica');

/** A table written as columns of text, widths in fractions of the page's width; a row never splits across pages. */
function table(doc: Doc, headers: string[], widths: number[], rows: string[][]) {
  const full = doc.page.width - 2 * MARGIN;
  const cols = widths.map((w) => w * full);
  const drawRow = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    const h = Math.max(...cells.map((c, i) => doc.heightOfString(c || '—', { width: cols[i]! - 4 }))) + 4;
    ensureSpace(doc, h + 2);
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((c, i) => { doc.text(c || '—', x + 2, y + 2, { width: cols[i]! - 4 }); x += cols[i]!; });
    doc.y = y + h;
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + full, doc.y).lineWidth(0.3).strokeColor('#bbbbbb').stroke().strokeColor('black');
  };
  drawRow(headers, true);
  for (const r of rows) drawRow(r, false);
  doc.x = MARGIN;
  doc.moveDown(0.3).font('Helvetica').fontSize(9.5);
}

function keyValues(doc: Doc, rows: { label: string; value: string }[]) {
  for (const r of rows) {
    ensureSpace(doc, 14);
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9.5).text(r.label, MARGIN, y, { width: 170 });
    const h1 = doc.y - y;
    doc.font('Helvetica').text(r.value, MARGIN + 175, y, { width: doc.page.width - 2 * MARGIN - 175 });
    doc.y = Math.max(doc.y, y + h1);
  }
  doc.x = MARGIN;
}

/**
 * The chain drawn level by level, the subjects the drawing leaves out, then the beneficial owners
 * as the UBO engine computed them on the chain (art. 20: ownership, control, or the senior
 * managers as the fallback), each with its effective share and the reason.
 */
function ownershipChain(doc: Doc, d: DossierData, st: DossierStructure) {
  const hidden = drawOwnershipChain(doc, st, d.owners.filter((o) => o.posizione === 'sotto'));
  const names = new Map(st.nodes.map((n) => [n.cod_anagrafe, n.denominazione]));
  if (hidden.length) {
    doc.font('Helvetica-Bold').text('Soggetti della catena non disegnati', MARGIN).font('Helvetica');
    table(doc, ['Soggetto', 'Livello', 'Legami', 'Titolare effettivo'], [0.3, 0.08, 0.42, 0.2], hidden.map((n) => [
      `${n.denominazione} (${n.cod_anagrafe})${n.pep ? ' · PEP' : ''}`, String(n.livello),
      st.edges.filter((e) => e.da === n.cod_anagrafe).map((e) => `${e.etichetta} di ${names.get(e.a) ?? e.a}`).join('; '), n.titolare ?? 'No',
    ]));
  }
  doc.moveDown(0.3).font('Helvetica-Bold').text(`Titolari effettivi calcolati sulla catena: ${st.criterio}`, MARGIN).font('Helvetica');
  if (!st.titolari.length) none(doc, 'Nessun titolare effettivo individuato dai legami registrati.');
  else {
    table(doc, ['Titolare effettivo', 'Quota effettiva', 'Quota art. 20', 'Motivo', 'Riferimento'], [0.24, 0.14, 0.12, 0.22, 0.28],
      st.titolari.map((t) => [`${t.denominazione}${t.cod_anagrafe ? ` (${t.cod_anagrafe})` : ''}`, t.quota_effettiva, t.quota_attribuita, t.motivo, t.riferimento]));
  }
  if (st.note.length) {
    doc.font('Helvetica-Oblique').fontSize(8).fillColor('#555555');
    for (const n of st.note) { ensureSpace(doc, 12); doc.text(n, MARGIN); }
    doc.fillColor('black').font('Helvetica').fontSize(9.5).moveDown(0.3);
  }
}

const SECTION_WRITERS: Record<DossierSection, (doc: Doc, d: DossierData) => void> = {
  identita: (doc, d) => keyValues(doc, [{ label: 'Codice anagrafico', value: d.subject.cod_anagrafe }, { label: 'Denominazione', value: d.subject.denominazione }, ...d.subject.fields]),
  rapporti: (doc, d) => {
    if (!d.relationships.length) return none(doc, 'Nessun rapporto registrato.');
    table(doc, ['Rapporto', 'Tipo', 'Ruolo', 'Stato', 'Aperto', 'Chiuso', 'Altri soggetti'], [0.13, 0.16, 0.13, 0.09, 0.1, 0.1, 0.29],
      d.relationships.map((r) => [r.cod_rapporto, r.tipo, r.ruolo, r.stato, dateIt(r.apertura), dateIt(r.chiusura), r.altri]));
  },
  titolari: (doc, d) => {
    const st = d.structure;
    if (!d.owners.length && !st?.edges.length) return none(doc, 'Nessun titolare effettivo o legame registrato.');
    if (st && st.edges.length) ownershipChain(doc, d, st);
    else drawOwnershipStructure(doc, d.subject, d.owners);
    if (!d.owners.length) return;
    doc.moveDown(0.3).font('Helvetica-Bold').text('Legami registrati del soggetto', MARGIN).font('Helvetica');
    table(doc, ['Soggetto', 'Legame', 'Quota', 'Controllo', 'PEP', 'In vigore'], [0.34, 0.2, 0.08, 0.18, 0.08, 0.12],
      d.owners.map((o) => [`${o.denominazione} (${o.cod_anagrafe})`, `${o.tipo}${o.posizione === 'sotto' ? ' (di questo soggetto)' : ''}`,
        o.percentuale === null ? '—' : `${o.percentuale.toLocaleString('it-IT')}%`, o.controllo ?? '—', o.pep ? 'Sì' : 'No', o.attivo ? 'Sì' : 'No']));
  },
  documenti: (doc, d) => {
    if (!d.documents.length) return none(doc, 'Nessun documento registrato.');
    table(doc, ['Documento', 'Numero', 'Rilasciato il', 'Scade il', 'Stato'], [0.3, 0.22, 0.16, 0.16, 0.16],
      d.documents.map((x) => [x.tipo, x.numero, dateIt(x.rilascio), dateIt(x.scadenza), x.stato]));
  },
  cdd: (doc, d) => {
    if (!d.cdd.length) return none(doc, 'Nessuna adeguata verifica registrata.');
    table(doc, ['Pratica', 'Livello', 'Motivo', 'Stato', 'Aperta', 'Conclusa'], [0.16, 0.16, 0.26, 0.14, 0.14, 0.14],
      d.cdd.map((t) => [t.codice, t.livello, t.motivo, t.stato, dateIt(t.aperta), dateIt(t.chiusa)]));
  },
  edd: (doc, d) => {
    if (!d.edd.length) return none(doc, 'Nessuna verifica rafforzata registrata.');
    table(doc, ['Pratica', 'Motivi', 'Stato', 'Aperta', 'Chiusa'], [0.16, 0.42, 0.14, 0.14, 0.14],
      d.edd.map((e) => [e.codice, e.motivi, e.stato, dateIt(e.aperta), dateIt(e.chiusa)]));
  },
  rischio: (doc, d) => {
    keyValues(doc, [
      { label: 'Classe di rischio attuale', value: d.risk.classe ?? 'Non ancora valutato' },
      { label: 'Punteggio', value: d.risk.punteggio === null ? '—' : String(d.risk.punteggio) },
    ]);
    const v = d.risk.valutazione;
    if (!v) return none(doc, 'Nessuna valutazione del rischio conclusa: la classe non ha una spiegazione registrata.');
    doc.moveDown(0.4);
    keyValues(doc, [
      { label: 'Valutazione', value: `${v.codice} (${v.stato}), calcolata il ${dateIt(v.calcolata_il)}` },
      { label: 'Classe dal punteggio', value: v.classe_calcolata ?? '—' },
      { label: 'Classe effettiva', value: v.classe_effettiva ?? '—' },
      ...(v.pavimento ? [{ label: 'Classe minima applicata', value: v.pavimento }] : []),
      ...(v.override ? [{ label: 'Modifica motivata', value: v.override }] : []),
    ]);
    doc.moveDown(0.3).font('Helvetica-Bold').text('Perché: i fattori che hanno contribuito al punteggio', MARGIN).font('Helvetica');
    if (!v.contributi.length) return none(doc, 'Nessun fattore ha contribuito al punteggio.');
    table(doc, ['Fattore', 'Punti', 'Spiegazione'], [0.3, 0.1, 0.6], v.contributi.map((k) => [k.nome, String(k.punti), k.frase]));
  },
  screening: (doc, d) => {
    const s = d.screening;
    if (!s || (!s.ultimo && !s.hits.length)) return none(doc, 'Il soggetto non è ancora stato sottoposto a screening.');
    keyValues(doc, [{ label: 'Ultimo screening', value: dateIt(s.ultimo) }, { label: 'Corrispondenze trovate', value: String(s.hits.length) }]);
    if (s.hits.length) {
      table(doc, ['Lista', 'Nome trovato', 'Punteggio', 'Esito', 'Data'], [0.3, 0.3, 0.1, 0.16, 0.14],
        s.hits.map((h) => [h.lista, h.nome, String(h.score), h.stato, dateIt(h.data)]));
    }
  },
  movimenti: (doc, d) => {
    const total = d.movements.reduce((a, m) => ({ entrate: a.entrate + m.entrate, uscite: a.uscite + m.uscite, contanti: a.contanti + m.contanti, numero: a.numero + m.numero }), { entrate: 0, uscite: 0, contanti: 0, numero: 0 });
    if (!total.numero) return none(doc, 'Nessun movimento negli ultimi 12 mesi.');
    keyValues(doc, [
      { label: 'Operazioni (12 mesi)', value: total.numero.toLocaleString('it-IT') },
      { label: 'Entrate', value: euro(total.entrate) }, { label: 'Uscite', value: euro(total.uscite) }, { label: 'Di cui in contanti', value: euro(total.contanti) },
    ]);
    drawMovementsChart(doc, d.movements);
    table(doc, ['Mese', 'Operazioni', 'Entrate', 'Uscite', 'Contanti'], [0.16, 0.14, 0.24, 0.24, 0.22],
      d.movements.map((m) => [m.mese, m.numero.toLocaleString('it-IT'), euro(m.entrate), euro(m.uscite), euro(m.contanti)]));
  },
  casi: (doc, d) => {
    if (!d.cases.length) return none(doc, 'Nessun caso di indagine sul cliente.');
    table(doc, ['Titolo', 'Tipo', 'Priorità', 'Stato', 'Aperto', 'Chiuso'], [0.36, 0.14, 0.12, 0.14, 0.12, 0.12],
      d.cases.map((k) => [k.titolo, k.tipo, k.priorita, k.stato, dateIt(k.aperto), dateIt(k.chiuso)]));
  },
};

/**
 * The customer dossier as a person reads it: a cover block, then the chosen sections in print
 * order, each page numbered "Pagina n di N" with the generation date. Standard PDF fonts only
 * (no font files to ship); the drawings are vectors (dossier.drawings.ts).
 */
export async function renderDossierPdf(data: DossierData, meta: DossierPdfMeta): Promise<{ pdf: Buffer; pages: number }> {
  // Loaded on first use, as the other areas do: pdfkit and its fonts are large.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4', margin: MARGIN, bufferPages: true,
    info: { Title: `Fascicolo del cliente ${data.subject.cod_anagrafe}`, Author: meta.ragioneSociale, Subject: 'Fascicolo antiriciclaggio (d.lgs. 231/2007)', CreationDate: meta.generatedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => { doc.on('end', resolve); doc.on('error', reject); });

  doc.font('Helvetica-Bold').fontSize(18).text('Fascicolo del cliente', MARGIN);
  doc.moveDown(0.2).fontSize(14).text(`${data.subject.denominazione} (${data.subject.cod_anagrafe})`);
  doc.moveDown(0.4).font('Helvetica').fontSize(9.5).fillColor('#333333')
    .text(`Soggetto obbligato: ${meta.ragioneSociale} (${meta.codAzienda})`)
    .text(`Generato il ${dateTimeIt(meta.generatedAt)} da ${meta.generatedBy}`)
    .text(`Sezioni: ${meta.sections.map((s) => DOSSIER_SECTION_LABELS[s]).join(', ')}`)
    .text('L\'impronta SHA-256 di questo file è nel manifesto firmato che lo accompagna.')
    .fillColor('black');

  for (const s of meta.sections) {
    heading(doc, DOSSIER_SECTION_LABELS[s]);
    SECTION_WRITERS[s](doc, data);
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: without lifting it, pdfkit would open a new page for it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor('#555555')
      .text(pageFooter(i - range.start + 1, range.count, meta), MARGIN, doc.page.height - MARGIN + 10, { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false })
      .fillColor('black');
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await ended;
  return { pdf: Buffer.concat(chunks), pages: range.count };
}
