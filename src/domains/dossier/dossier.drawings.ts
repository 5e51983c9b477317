import type { DossierData, DossierOwner } from './dossier.data';
import { ensureSpace, euro, MARGIN } from './dossier.layout';
import type { DossierChainNode, DossierStructure } from './dossier.structure';

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

/** How much of the chain is drawn: past these, the subjects are listed in a table under the drawing. */
export const CHAIN_MAX_LEVELS = 5;
export const CHAIN_MAX_BOXES = 20;

/** A box of the chain: the name, the code (and PEP), and the beneficial owner's mark with its effective share. */
function chainBox(doc: Doc, x: number, y: number, w: number, h: number, n: DossierChainNode, strong: boolean) {
  doc.save().lineWidth(strong || n.titolare ? 1.6 : 0.8).strokeColor(n.titolare ? '#2b8a3e' : INK).fillColor(strong ? '#e8eef6' : n.titolare ? '#ebfbee' : '#ffffff');
  (n.persona ? doc.roundedRect(x, y, w, h, 10) : doc.rect(x, y, w, h)).fillAndStroke();
  doc.restore();
  doc.fillColor('black').font('Helvetica-Bold').fontSize(7.5).text(n.denominazione, x + 4, y + 4, { width: w - 8, height: 18, align: 'center', ellipsis: true });
  doc.font('Helvetica').fontSize(6.5).fillColor(MUTED).text(`${n.cod_anagrafe}${n.pep ? ' · PEP' : ''}`, x + 4, y + h - (n.titolare ? 21 : 12), { width: w - 8, align: 'center', lineBreak: false, ellipsis: true });
  if (n.titolare) doc.font('Helvetica-Bold').fillColor('#2b8a3e').text(n.titolare, x + 2, y + h - 11, { width: w - 4, align: 'center', lineBreak: false, ellipsis: true });
  doc.fillColor('black').font('Helvetica');
}

/**
 * The whole ownership chain, one row per level: the natural persons at the top, the customer at
 * the foot, each arrow from the holder down to what it holds with its share or kind of control,
 * the beneficial owners marked with their effective share; what the customer holds a stake in in
 * a row below it. At most CHAIN_MAX_LEVELS rows of five boxes and CHAIN_MAX_BOXES boxes in all:
 * the subjects left out are returned, for the table under the drawing.
 */
export function drawOwnershipChain(doc: Doc, structure: DossierStructure, held: DossierOwner[]): DossierChainNode[] {
  const width = doc.page.width - 2 * MARGIN;
  const bw = 92;
  const bh = 44;
  const gap = 52;
  const rows: DossierChainNode[][] = [];
  const hidden: DossierChainNode[] = [];
  let drawn = 0;
  for (const n of [...structure.nodes].sort((a, b) => a.livello - b.livello)) {
    const row = (rows[n.livello] ??= []);
    if (n.livello >= CHAIN_MAX_LEVELS || row.length >= MAX_PER_ROW || drawn >= CHAIN_MAX_BOXES) { hidden.push(n); continue; }
    row.push(n);
    drawn++;
  }
  const levels = rows.filter((r) => r.length).length;
  const below = held.slice(0, MAX_PER_ROW);
  const height = levels * bh + (levels - 1) * gap + (below.length ? gap + bh : 0) + 20;
  ensureSpace(doc, height);
  const top = doc.y + 6;
  const rowXs = (n: number) => Array.from({ length: n }, (_, i) => MARGIN + (width / n) * (i + 0.5) - bw / 2);
  const at = new Map<string, { x: number; y: number }>();
  rows.forEach((row, level) => rowXs(row.length).forEach((x, i) => at.set(row[i]!.cod_anagrafe, { x, y: top + (levels - 1 - level) * (bh + gap) })));
  const label = (text: string, x: number, y: number) =>
    doc.font('Helvetica').fontSize(6.5).fillColor(INK).text(text, x - 45, y - 4, { width: 90, align: 'center', lineBreak: false, ellipsis: true }).fillColor('black');

  for (const e of structure.edges) {
    const from = at.get(e.da);
    const to = at.get(e.a);
    if (!from || !to) continue;
    // Down from the holder's foot to the held one's head; a holding against the levels (a cross-holding) goes up or sideways.
    const [x1, y1, x2, y2] = from.y < to.y ? [from.x + bw / 2, from.y + bh, to.x + bw / 2, to.y]
      : from.y > to.y ? [from.x + bw / 2, from.y, to.x + bw / 2, to.y + bh]
        : [from.x + (from.x < to.x ? bw : 0), from.y + bh / 2, to.x + (from.x < to.x ? 0 : bw), to.y + bh / 2];
    arrow(doc, x1, y1, x2, y2, false);
    label(e.etichetta, x1 + (x2 - x1) * 0.45, y1 + (y2 - y1) * 0.45);
  }
  const root = structure.nodes[0]!.cod_anagrafe;
  for (const [cod, p] of at) chainBox(doc, p.x, p.y, bw, bh, structure.nodes.find((n) => n.cod_anagrafe === cod)!, cod === root);
  const subject = at.get(root)!;
  const belowY = subject.y + bh + gap;
  rowXs(below.length).forEach((x, i) => {
    const o = below[i]!;
    box(doc, x, belowY, bw, bh, o.denominazione, o.cod_anagrafe, { person: o.persona, dashed: !o.attivo });
    const [x1, y1, x2, y2] = [subject.x + bw / 2, subject.y + bh, x + bw / 2, belowY];
    arrow(doc, x1, y1, x2, y2, !o.attivo);
    label([o.tipo, o.percentuale === null ? null : `${o.percentuale.toLocaleString('it-IT')}%`].filter(Boolean).join(' '), (x1 + x2) / 2, (y1 + y2) / 2);
  });
  doc.x = MARGIN;
  doc.y = top + height - 14;
  doc.font('Helvetica-Oblique').fontSize(7.5).fillColor(MUTED)
    .text(`Le frecce vanno da chi possiede, controlla o rappresenta a chi è posseduto; in verde i titolari effettivi con la quota effettiva.${hidden.length ? ` Altri ${hidden.length} soggetti della catena nella tabella.` : ''}`, MARGIN)
    .fillColor('black').font('Helvetica').fontSize(9.5);
  doc.moveDown(0.5);
  return hidden;
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
