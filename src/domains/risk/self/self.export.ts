import { data as formatDate } from '../../../http/format';
import { INDICATORE_LABELS, LIVELLO_LABELS, RESIDUO_LABELS, STATO_LABELS, VULNERABILITA_LABELS } from './self.labels';
import { MATRICE_RESIDUO, type Livello } from './self.matrix';
import type { EsercizioDetail } from './self.service';

const SOURCE = 'Metodo: Banca d\'Italia, Disposizioni in materia di organizzazione, procedure e controlli interni antiriciclaggio (26 marzo 2019), Parte Settima - autovalutazione dei rischi.';
const liv = (l: Livello | null) => (l ? `${l} - ${LIVELLO_LABELS[l]}` : '-');
const vul = (l: Livello | null) => (l ? `${l} - ${VULNERABILITA_LABELS[l]}` : '-');
const eur = (n: number) => new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(n);
const pct = (n: number, d: number) => (d > 0 ? `${new Intl.NumberFormat('it-IT', { maximumFractionDigits: 1 }).format((n / d) * 100)}%` : '0%');
const who = (names: Record<string, string>, id: string | null) => (id ? names[id] ?? id : '-');

/** The rows both reports share: one per line, in the page's order. */
function lineRows(d: EsercizioDetail) {
  return d.linee.map((l) => ({
    linea: l.nome, peso: l.peso, clienti: l.figure.clienti, alto: l.figure.clienti_alto_rischio, pep: l.figure.pep, paesi: l.figure.paesi_alto_rischio,
    movimenti: l.figure.movimenti, volume: l.figure.volume_eur, contanti: pct(l.figure.contanti_eur, l.figure.volume_eur),
    suggerito: liv(l.suggerimento.livello), inerente: liv(l.inerente), motivazione: l.motivazione_inerente,
    vulnerabilita: vul(l.vulnerabilita), residuo: l.residuo ? RESIDUO_LABELS[l.residuo] : '-',
  }));
}

/** The exercise as a PDF report: heading, approval, the lines with their figures and choices, the overall, the matrix, the method. */
export async function exportPdf(d: EsercizioDetail, names: Record<string, string>, azienda: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const e = d.esercizio;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 40, info: { Title: `Autovalutazione dei rischi ${e.anno}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const line = (label: string, value: string) => { doc.font('Helvetica-Bold').text(label, { continued: true }).font('Helvetica').text(` ${value}`); };
    doc.font('Helvetica-Bold').fontSize(16).text(`Autovalutazione dei rischi di riciclaggio ${e.anno}`).moveDown(0.3).fontSize(10);
    line('Soggetto obbligato:', azienda);
    line('Stato:', STATO_LABELS[e.stato] ?? e.stato);
    line('Redatta da:', who(names, e.created_by));
    line('Inviata in approvazione da:', `${who(names, e.submitted_by)}${e.submitted_at ? ` il ${formatDate(e.submitted_at)}` : ''}`);
    line('Approvata da:', `${who(names, e.approved_by)}${e.approved_at ? ` il ${formatDate(e.approved_at)}` : ''}`);
    line('Periodo dei dati sui movimenti:', `dal ${formatDate(d.finestra.da)} al ${formatDate(d.finestra.a)}`);
    line('Rischio residuo complessivo:', d.complessivo ? `${RESIDUO_LABELS[d.complessivo.residuo]} (media ponderata ${d.complessivo.punteggio.toLocaleString('it-IT')})` : 'non ancora determinato');
    if (e.note) line('Note:', e.note);
    doc.moveDown();
    for (const r of lineRows(d)) {
      doc.font('Helvetica-Bold').fontSize(12).text(`${r.linea} (peso ${r.peso.toLocaleString('it-IT')}%)`).fontSize(10);
      line('Clienti:', `${r.clienti.toLocaleString('it-IT')}; in classe alta o medio-alta ${r.alto.toLocaleString('it-IT')}; PEP ${r.pep.toLocaleString('it-IT')}; legati a paesi ad alto rischio ${r.paesi.toLocaleString('it-IT')}`);
      line('Movimenti:', `${r.movimenti.toLocaleString('it-IT')} per ${eur(r.volume)}; quota del contante ${r.contanti}`);
      line('Rischio inerente suggerito dai dati:', r.suggerito);
      line('Rischio inerente scelto:', `${r.inerente}${r.motivazione ? ` - motivazione: ${r.motivazione}` : ''}`);
      line('Vulnerabilità dei presidi:', r.vulnerabilita);
      line('Rischio residuo:', r.residuo);
      doc.moveDown(0.6);
    }
    doc.font('Helvetica-Bold').fontSize(12).text('Matrice del rischio residuo (righe: rischio inerente; colonne: vulnerabilità)').fontSize(9).font('Helvetica');
    for (let i = 4; i >= 1; i -= 1) {
      doc.text(`${LIVELLO_LABELS[i as Livello]}: ${MATRICE_RESIDUO[i - 1]!.map((r, j) => `${VULNERABILITA_LABELS[(j + 1) as Livello]} = ${RESIDUO_LABELS[r]}`).join('; ')}`);
    }
    doc.moveDown().fontSize(8).text(SOURCE);
    doc.end();
  });
}

/** The exercise as a workbook: a sheet of lines, one of the indicators behind each suggestion, one with the matrix and the method. */
export async function exportXlsx(d: EsercizioDetail, names: Record<string, string>, azienda: string): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const e = d.esercizio;
  const info = book.addWorksheet('Esercizio');
  info.addRows([
    ['Autovalutazione dei rischi di riciclaggio', e.anno], ['Soggetto obbligato', azienda], ['Stato', STATO_LABELS[e.stato] ?? e.stato],
    ['Redatta da', who(names, e.created_by)], ['Inviata da', who(names, e.submitted_by)], ['Approvata da', who(names, e.approved_by)],
    ['Approvata il', e.approved_at ? formatDate(e.approved_at) : '-'], ['Dati dei movimenti dal', formatDate(d.finestra.da)], ['al', formatDate(d.finestra.a)],
    ['Rischio residuo complessivo', d.complessivo ? RESIDUO_LABELS[d.complessivo.residuo] : '-'], ['Media ponderata', d.complessivo?.punteggio ?? null], ['Note', e.note],
  ]);
  info.getColumn(1).width = 32;
  info.getColumn(2).width = 48;
  const sheet = book.addWorksheet('Linee');
  sheet.columns = [
    { header: 'Linea di business', key: 'linea', width: 32 }, { header: 'Peso %', key: 'peso', width: 9 }, { header: 'Clienti', key: 'clienti', width: 9 },
    { header: 'Clienti alto/medio-alto', key: 'alto', width: 12 }, { header: 'PEP', key: 'pep', width: 7 }, { header: 'Paesi alto rischio', key: 'paesi', width: 10 },
    { header: 'Movimenti', key: 'movimenti', width: 11 }, { header: 'Volume EUR', key: 'volume', width: 14 }, { header: 'Quota contante', key: 'contanti', width: 10 },
    { header: 'Inerente suggerito', key: 'suggerito', width: 26 }, { header: 'Inerente scelto', key: 'inerente', width: 26 }, { header: 'Motivazione', key: 'motivazione', width: 40 },
    { header: 'Vulnerabilità', key: 'vulnerabilita', width: 26 }, { header: 'Rischio residuo', key: 'residuo', width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const r of lineRows(d)) sheet.addRow(r);
  const ind = book.addWorksheet('Indicatori');
  ind.addRow(['Linea di business', 'Indicatore', 'Valore', 'Livello']).font = { bold: true };
  for (const l of d.linee) for (const i of l.suggerimento.indicatori) ind.addRow([l.nome, INDICATORE_LABELS[i.nome] ?? i.nome, i.valore, i.livello]);
  const m = book.addWorksheet('Matrice');
  m.addRow(['Rischio inerente \\ Vulnerabilità', ...[1, 2, 3, 4].map((v) => VULNERABILITA_LABELS[v as Livello])]).font = { bold: true };
  for (let i = 4; i >= 1; i -= 1) m.addRow([LIVELLO_LABELS[i as Livello], ...MATRICE_RESIDUO[i - 1]!.map((r) => RESIDUO_LABELS[r])]);
  m.addRow([]);
  m.addRow([SOURCE]);
  m.getColumn(1).width = 30;
  return Buffer.from(await book.xlsx.writeBuffer());
}
