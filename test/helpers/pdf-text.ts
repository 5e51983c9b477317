import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF written by pdfkit with the standard fonts, page by page: its content streams
 * inflated, the strings of each Tj/TJ decoded from WinAnsi, one line per text object. Not a
 * general extractor (no embedded fonts, no CMaps): enough to read back what this product writes.
 */
const WIN_ANSI_EXTRA: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž',
  0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};
const decodeHex = (hex: string) => {
  let out = '';
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const c = parseInt(hex.slice(i, i + 2), 16);
    out += WIN_ANSI_EXTRA[c] ?? String.fromCharCode(c);
  }
  return out;
};

function streamsOf(pdf: Buffer): string[] {
  const out: string[] = [];
  const s = pdf.toString('latin1');
  const re = /<<([^]*?)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const end = s.indexOf('endstream', start);
    const raw = pdf.subarray(start, end);
    try {
      out.push((/FlateDecode/.test(m[1]!) ? inflateSync(raw) : raw).toString('latin1'));
    } catch {
      // Not a stream we can read (an image, a font): no text in it.
    }
    re.lastIndex = end;
  }
  return out;
}

/** The text of each content stream holding text (pdfkit writes one per page), lines joined with \n. */
export function pdfPagesText(pdf: Buffer): string[] {
  return streamsOf(pdf).filter((s) => /\bBT\b/.test(s)).map((content) => {
    const lines: string[] = [];
    for (const block of content.split(/\bBT\b/).slice(1)) {
      const text = block.split(/\bET\b/)[0]!;
      let line = '';
      for (const op of text.matchAll(/\[((?:[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (op[2] !== undefined) line += decodeHex(op[2]);
        else for (const h of op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)) line += decodeHex(h[1]!);
      }
      if (line) lines.push(line);
    }
    return lines.join('\n');
  });
}

export const pdfText = (pdf: Buffer) => pdfPagesText(pdf).join('\n');
