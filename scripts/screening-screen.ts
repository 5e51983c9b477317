/**
 * Loads every sanctions list, reads "name[|date_of_birth|nationality]" lines on stdin and writes
 * "best_score<TAB>list_entry_id<TAB>list_name" per line (0 and empty fields when nothing found).
 */
import { createInterface } from 'node:readline';
import { loadAllLists } from '../src/domains/screening/lib/load-all';
import { Screener } from '../src/domains/screening/lib/match/screener';

const { entries } = await loadAllLists();
const screener = new Screener(entries);
const out: string[] = [];
const flush = () => { if (out.length) { process.stdout.write(`${out.join('\n')}\n`); out.length = 0; } };
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const [name = '', birthDate, nationality] = line.split('|').map((s) => s.trim());
  const hit = name ? screener.best({ name, ...(birthDate ? { birthDate } : {}), ...(nationality ? { nationality } : {}) }) : undefined;
  out.push(hit && hit.score > 0 ? `${hit.score.toFixed(4)}\t${hit.entry.id}\t${hit.entry.list}` : '0\t\t');
  if (out.length >= 1000) flush();
}
flush();
