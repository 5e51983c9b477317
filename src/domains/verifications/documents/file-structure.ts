import { crc32 } from 'node:zlib';

/**
 * Whether a stored copy can be opened, read from its structure without rendering it: a PDF
 * whose trailer and cross-reference pointer are there and that has pages, a JPEG whose frame
 * header gives its size, a PNG whose header chunk is intact. A truncated upload, a file cut by a
 * scanner or a renamed fragment fails here; the type itself was sniffed at upload.
 */
export type Readability = { ok: true; descrizione: string; dettagli: Record<string, number | string | boolean> } | { ok: false; motivo: string };

const ascii = (b: Buffer, from = 0, to = b.length) => b.subarray(from, to).toString('latin1');

function pdf(bytes: Buffer): Readability {
  if (!ascii(bytes, 0, 5).startsWith('%PDF-')) return { ok: false, motivo: 'Il file non inizia con l\'intestazione di un PDF' };
  const versione = /^%PDF-(\d\.\d)/.exec(ascii(bytes, 0, 16))?.[1] ?? '?';
  const tail = ascii(bytes, Math.max(0, bytes.length - 2048));
  if (!tail.includes('%%EOF')) return { ok: false, motivo: 'Il PDF è troncato: manca la marca di fine file (%%EOF)' };
  const xref = /startxref\s+(\d+)\s+%%EOF/.exec(tail);
  if (!xref) return { ok: false, motivo: 'Il PDF non indica dove inizia la tabella dei riferimenti (startxref)' };
  const offset = Number(xref[1]);
  if (offset <= 0 || offset >= bytes.length) return { ok: false, motivo: 'Il PDF indica una tabella dei riferimenti fuori dal file' };
  const at = ascii(bytes, offset, Math.min(bytes.length, offset + 64));
  // A classic table ('xref') or a cross-reference stream ('N G obj' with /Type /XRef).
  if (!/^\s*(xref|\d+\s+\d+\s+obj)/.test(at)) return { ok: false, motivo: 'La tabella dei riferimenti del PDF non è dove il file la indica' };
  const body = ascii(bytes);
  const pagine = (body.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
  const compressed = /\/Type\s*\/ObjStm/.test(body);
  if (pagine === 0 && !compressed) return { ok: false, motivo: 'Il PDF non contiene pagine' };
  const cifrato = /\/Encrypt\s/.test(body);
  return { ok: true, descrizione: `PDF ${versione}${pagine ? `, ${pagine} ${pagine === 1 ? 'pagina' : 'pagine'}` : ''}${cifrato ? ', protetto da cifratura' : ''}`, dettagli: { versione, pagine, cifrato } };
}

/** Start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC) carry the image's size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Buffer): Readability {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return { ok: false, motivo: 'Il file non inizia con l\'intestazione di un JPEG' };
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return { ok: false, motivo: 'La struttura del JPEG è danneggiata (segmento non valido)' };
    const marker = bytes[i + 1]!;
    if (marker === 0xff) { i++; continue; }
    if (marker === 0xd9 || marker === 0xda) break;
    const len = bytes.readUInt16BE(i + 2);
    if (len < 2 || i + 2 + len > bytes.length) return { ok: false, motivo: 'Il JPEG è troncato (un segmento finisce oltre il file)' };
    if (SOF.has(marker)) {
      if (len < 8) return { ok: false, motivo: 'L\'intestazione dell\'immagine JPEG è incompleta' };
      const altezza = bytes.readUInt16BE(i + 5);
      const larghezza = bytes.readUInt16BE(i + 7);
      if (!altezza || !larghezza) return { ok: false, motivo: 'L\'immagine JPEG dichiara dimensioni nulle' };
      const end = bytes.subarray(Math.max(0, bytes.length - 32));
      if (end.indexOf(Buffer.from([0xff, 0xd9])) < 0) return { ok: false, motivo: 'Il JPEG è troncato: manca la marca di fine immagine' };
      return { ok: true, descrizione: `Immagine JPEG ${larghezza} × ${altezza} pixel`, dettagli: { larghezza, altezza } };
    }
    i += 2 + len;
  }
  return { ok: false, motivo: 'Il JPEG non contiene l\'intestazione dell\'immagine (dimensioni)' };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function png(bytes: Buffer): Readability {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return { ok: false, motivo: 'Il file non inizia con la firma di un PNG' };
  if (bytes.readUInt32BE(8) !== 13 || ascii(bytes, 12, 16) !== 'IHDR') return { ok: false, motivo: 'Il PNG non inizia con l\'intestazione dell\'immagine (IHDR)' };
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) return { ok: false, motivo: 'L\'intestazione del PNG è danneggiata (CRC non corrispondente)' };
  const larghezza = bytes.readUInt32BE(16);
  const altezza = bytes.readUInt32BE(20);
  if (!larghezza || !altezza) return { ok: false, motivo: 'L\'immagine PNG dichiara dimensioni nulle' };
  if (bytes.subarray(Math.max(0, bytes.length - 12)).indexOf(Buffer.from('IEND', 'latin1')) < 0) return { ok: false, motivo: 'Il PNG è troncato: manca il blocco finale (IEND)' };
  return { ok: true, descrizione: `Immagine PNG ${larghezza} × ${altezza} pixel`, dettagli: { larghezza, altezza } };
}

/** Reads the structure of a PDF, JPEG or PNG copy (the types the document store accepts). */
export function readability(bytes: Buffer, mime: string): Readability {
  if (bytes.length === 0) return { ok: false, motivo: 'Il file è vuoto' };
  if (mime === 'application/pdf') return pdf(bytes);
  if (mime === 'image/jpeg') return jpeg(bytes);
  if (mime === 'image/png') return png(bytes);
  return { ok: false, motivo: `Formato ${mime} non leggibile: sono ammessi PDF, JPEG e PNG` };
}
