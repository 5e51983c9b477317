import type { DossierData, DossierOwner } from './dossier.data';
import { ensureSpace, euro, MARGIN } from './dossier.layout';

type Doc = PDFKit.PDFDocument;
const INK = '#1d3557';
const MUTED = '#6c757d';

/** An arrow from (x1, y1) to (x2, y2), its head at the end. */
function arrow(doc: Doc, x1: number, y1: number, x2: number, y2: number, dashed: boolean) {
  doc.save().lineWidth(0.8).strokeColor(INK);
  if (dashed) doc.dash(3, { space: 2 });
  doc.moveTo(x1, y1).lineTo(x2, y2).stroke();
  doc.undash();
  const a = Math.atan2(y2 - y1, x2 - x1);
  const s = 6;
  doc.polygon([x2, y2], [x2 - s * Math.cos(a - 0.4), y2 - s * Math.sin(a - 0.4)], [x2 - s * Math.cos(a + 0.4), y2 - s * Math.sin(a + 0.4)]).fillColor(INK).fill();
  doc.restore();
}

/** A labelled box: rounded for a person, square for a company; dashed when the link is no longer in force. */
function box(doc: Doc, x: number, y: number, w: number, h: number, title: string, sub: string, o: { person: boolean; strong?: boolean; dashed?: boolean }) {
  doc.save().lineWidth(o.strong ? 1.6 : 0.8).strokeColor(INK).fillColor(o.strong ? '#e8eef6' : '#ffffff');
  if (o.dashed) doc.dash(3, { space: 2 });
  (o.person ? doc.roundedRect(x, y, w, h, 10) : doc.rect(x, y, w, h)).fillAndStroke();
  doc.undash().restore();
  doc.fillColor('black').font('Helvetica-Bold').fontSize(7.5).text(title, x + 4, y + 5, { width: w - 8, height: 20, align: 'center', ellipsis: true });
  doc.font('Helvetica').fontSize(6.5).fillColor(MUTED).text(sub, x + 4, y + h - 13, { width: w - 8, align: 'center', lineBreak: false, ellipsis: true }).fillColor('black');
}

const MAX_PER_ROW = 5;

/**
 * The ownership structure: the subject in the middle, those who own, control or represent it
 * above with an arrow down to it (share or kind of control on the arrow), what it holds a
 * stake in below. At most five boxes a row; the table under the drawing lists every link.
 */
export function drawOwnershipStructure(doc: Doc, subject: DossierData['subject'], owners: DossierOwner[]) {
  const width = doc.page.width - 2 * MARGIN;
  const bw = 92;
  const bh = 36;
  const gap = 70;
  const above = owners.filter((o) => o.posizione === 'sopra').slice(0, MAX_PER_ROW);
  const below = owners.filter((o) => o.posizione === 'sotto').slice(0, MAX_PER_ROW);
  const height = (above.length ? bh + gap : 0) + bh + (below.length ? gap + bh : 0) + 20;
  ensureSpace(doc, height);
  const top = doc.y + 6;
  const rowXs = (n: number) => Array.from({ length: n }, (_, i) => MARGIN + (width / n) * (i + 0.5) - bw / 2);
  const centreX = MARGIN + width / 2 - bw / 2;
  const subjectY = top + (above.length ? bh + gap : 0);
  const edgeLabel = (o: DossierOwner) => [o.tipo, o.percentuale === null ? null : `${o.percentuale.toLocaleString('it-IT')}%`].filter(Boolean).join(' ');

  rowXs(above.length).forEach((x, i) => {
    const o = above[i]!;
    box(doc, x, top, bw, bh, o.denominazione, `${o.cod_anagrafe}${o.pep ? ' · PEP' : ''}`, { person: o.persona, dashed: !o.attivo });
    const [x1, y1, x2, y2] = [x + bw / 2, top + bh, centreX + bw / 2, subjectY];
    arrow(doc, x1, y1, x2, y2, !o.attivo);
    doc.font('Helvetica').fontSize(6.5).fillColor(INK).text(edgeLabel(o), (x1 + x2) / 2 - 40, (y1 + y2) / 2 - 4, { width: 80, align: 'center', lineBreak: false }).fillColor('black');
  });
  box(doc, centreX, subjectY, bw, bh, subject.denominazione, subject.cod_anagrafe, { person: subject.tipo_soggetto === 'persona_fisica', strong: true });
  const belowY = subjectY + bh + gap;
  rowXs(below.length).forEach((x, i) => {
    const o = below[i]!;
    box(doc, x, belowY, bw, bh, o.denominazione, o.cod_anagrafe, { person: o.persona, dashed: !o.attivo });
    const [x1, y1, x2, y2] = [centreX + bw / 2, subjectY + bh, x + bw / 2, belowY];
    arrow(doc, x1, y1, x2, y2, !o.attivo);
    doc.font('Helvetica').fontSize(6.5).fillColor(INK).text(edgeLabel(o), (x1 + x2) / 2 - 40, (y1 + y2) / 2 - 4, { width: 80, align: 'center', lineBreak: false }).fillColor('black');
  });
  const hidden = owners.length - above.length - below.length;
  doc.x = MARGIN;
  doc.y = top + height - 14;
  doc.font('Helvetica-Oblique').fontSize(7.5).fillColor(MUTED)
    .text(`Le frecce vanno da chi possiede, controlla o rappresenta a chi è posseduto; tratteggio: legame cessato.${hidden > 0 ? ` Altri ${hidden} legami nella tabella.` : ''}`, MARGIN)
    .fillColor('black').font('Helvetica').fontSize(9.5);
  doc.moveDown(0.5);
}

/**
 * The monthly volumes as a bar chart drawn with vectors: incoming and outgoing side by side
 * per month, the cash part as a darker band at the foot of each, the scale's top on the axis.
 */
export function drawMovementsChart(doc: Doc, months: DossierData['movements']) {
  const width = doc.page.width - 2 * MARGIN;
  const h = 130;
  ensureSpace(doc, h + 50);
  const top = doc.y + 10;
  const axisX = MARGIN + 60;
  const plotW = width - 60;
  const max = Math.max(1, ...months.map((m) => Math.max(m.entrate, m.uscite)));
  const slot = plotW / Math.max(1, months.length);
  const bar = Math.min(14, slot / 2.6);
  doc.save().lineWidth(0.5).strokeColor('#999999').moveTo(axisX, top).lineTo(axisX, top + h).lineTo(axisX + plotW, top + h).stroke().restore();
  doc.font('Helvetica').fontSize(6.5).fillColor(MUTED).text(euro(max), MARGIN, top - 3, { width: 56, align: 'right', lineBreak: false })
    .text('0 €', MARGIN, top + h - 4, { width: 56, align: 'right', lineBreak: false });
  months.forEach((m, i) => {
    const x = axisX + i * slot + slot / 2 - bar;
    const hi = (m.entrate / max) * h;
    const ho = (m.uscite / max) * h;
    if (hi > 0) doc.rect(x, top + h - hi, bar, hi).fillColor('#2f9e44').fill();
    if (ho > 0) doc.rect(x + bar, top + h - ho, bar, ho).fillColor('#e8590c').fill();
    const hc = Math.min((m.contanti / max) * h, Math.max(hi, ho));
    if (hc > 0) doc.rect(x, top + h - hc, bar * 2, hc).fillColor('#f59f00').fillOpacity(0.8).fill().fillOpacity(1);
    doc.fillColor(MUTED).fontSize(6).text(m.mese.slice(2), axisX + i * slot, top + h + 3, { width: slot, align: 'center', lineBreak: false });
  });
  const ly = top + h + 14;
  const legend: [string, string][] = [['#2f9e44', 'Entrate'], ['#e8590c', 'Uscite'], ['#f59f00', 'Di cui in contanti']];
  legend.forEach(([c, t], i) => {
    const lx = axisX + i * 110;
    doc.rect(lx, ly, 8, 8).fillColor(c).fill();
    doc.fillColor('black').fontSize(7.5).text(t, lx + 12, ly, { lineBreak: false });
  });
  doc.fillColor('black').font('Helvetica').fontSize(9.5);
  doc.x = MARGIN;
  doc.y = ly + 18;
}
