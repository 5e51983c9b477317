import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { Casuale, type ClienteGenerato } from '../generator';
import { identityOf } from './seed.identities';
import { codePrefix, seedYear } from './seed.year';
import type { SeedJobRow } from './seed.repo';

/**
 * The generated year written as the records area's import files (docs/import.md): customers,
 * relationships, movements, CSV with `;`. Crypto transfers are not movements of an account: they
 * go in as KYT events (seed.steps.ts). Written one customer at a time: a year of 20,000 customers
 * is never held in memory.
 */

const CLIENTI = ['tipo_soggetto', 'nome', 'cognome', 'denominazione', 'codice_fiscale', 'partita_iva', 'data_nascita', 'paese_residenza', 'pep', 'classe_rischio',
  'codice_esterno', 'ateco', 'professione', 'data_onboarding', 'volume_mensile_atteso_eur', 'uso_contanti_atteso'];
const RAPPORTI = ['codice_esterno', 'codice_esterno_cliente', 'tipo', 'data_apertura'];
const MOVIMENTI = ['chiave_esterna', 'rapporto', 'data_operazione', 'ora_operazione', 'importo', 'segno', 'causale', 'canale', 'contanti',
  'controparte_nome', 'controparte_conto', 'controparte_paese'];

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'boolean' ? (v ? 'sì' : 'no') : String(v);
  return /[;"\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
const line = (values: unknown[]) => `${values.map(cell).join(';')}\n`;

class CsvFile {
  private readonly out;
  rows = 0;
  constructor(readonly path: string, header: string[]) {
    this.out = createWriteStream(path, { encoding: 'utf8' });
    this.out.write(line(header));
  }
  async write(values: unknown[]) {
    this.rows += 1;
    if (!this.out.write(line(values))) await once(this.out, 'drain');
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => { this.out.end((err?: Error | null) => (err ? reject(err) : resolve())); });
  }
}

export const isCrypto = (m: { indirizzo_controparte?: string | null }) => !!m.indirizzo_controparte;

export interface SeedFilesWritten {
  paths: { clienti: string; rapporti: string; movimenti: string };
  righe: { clienti: number; rapporti: number; movimenti: number; eventi_kyt: number };
  piantati: Record<string, number>;
}

export async function writeSeedFiles(dir: string, job: Pick<SeedJobRow, 'id' | 'clienti' | 'seed' | 'mesi' | 'dal'>, heartbeat: () => void): Promise<SeedFilesWritten> {
  await mkdir(dir, { recursive: true });
  const prefix = codePrefix(job.id);
  const piano = seedYear(job);
  const files = {
    clienti: new CsvFile(join(dir, `seed-${job.id}-clienti.csv`), CLIENTI),
    rapporti: new CsvFile(join(dir, `seed-${job.id}-rapporti.csv`), RAPPORTI),
    movimenti: new CsvFile(join(dir, `seed-${job.id}-movimenti.csv`), MOVIMENTI),
  };
  const rng = new Casuale(`identita:${job.id}`);
  const used = new Set<string>();
  const piantati: Record<string, number> = {};
  let eventi = 0;
  try {
    for (let i = 0; i < piano.clienti; i++) {
      const c = piano.cliente(i);
      await writeCustomer(files, prefix, c, identityOf(rng, c, used));
      eventi += c.movimenti.filter(isCrypto).length;
      for (const e of c.etichette) piantati[e.tipologia] = (piantati[e.tipologia] ?? 0) + 1;
      if (i % 200 === 199) heartbeat();
    }
  } finally {
    await Promise.all(Object.values(files).map((f) => f.close()));
  }
  return {
    paths: { clienti: files.clienti.path, rapporti: files.rapporti.path, movimenti: files.movimenti.path },
    righe: { clienti: files.clienti.rows, rapporti: files.rapporti.rows, movimenti: files.movimenti.rows, eventi_kyt: eventi },
    piantati,
  };
}

async function writeCustomer(files: Record<'clienti' | 'rapporti' | 'movimenti', CsvFile>, prefix: string, c: ClienteGenerato, id: { codice_fiscale: string | null; partita_iva: string | null }) {
  const p = c.profilo;
  const a = c.anagrafica;
  await files.clienti.write([
    p.tipo_soggetto, a.nome, a.cognome, a.denominazione, id.codice_fiscale, id.partita_iva, p.data_nascita, p.paese_residenza, p.pep, p.classe_rischio,
    `${prefix}${p.codice_esterno}`, p.ateco, p.professione, p.data_onboarding, p.volume_mensile_atteso_eur, p.uso_contanti_atteso,
  ]);
  for (const r of p.rapporti) await files.rapporti.write([`${prefix}${r.cod_rapporto}`, `${prefix}${p.codice_esterno}`, r.tipo, r.data_apertura]);
  for (const m of c.movimenti) {
    if (isCrypto(m)) continue;
    await files.movimenti.write([
      `${prefix}${m.id}`, `${prefix}${m.cod_rapporto}`, m.data_operazione, m.ora_operazione, m.importo_eur.toFixed(2), m.segno, m.causale, m.canale, m.contanti,
      m.controparte_nome, m.controparte_conto, m.controparte_paese,
    ]);
  }
}
