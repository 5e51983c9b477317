/**
 * Reads CSV "name1,name2[,schema]" on stdin and writes one score in [0,1] per line, computed
 * by the same name scorer the screener uses. Only scores go to stdout.
 */
import { parse } from 'csv-parse';
import { scorePair } from '../src/domains/screening/lib/match/screener';
import { SCHEMAS, type Schema } from '../src/domains/screening/lib/types';

const parser = process.stdin.pipe(parse({ relax_column_count: true, skip_empty_lines: true, trim: true }));
const lines: string[] = [];
let first = true;
for await (const record of parser as AsyncIterable<string[]>) {
  const [a = '', b = '', schemaText] = record;
  // An optional header line is not a pair.
  if (first && /^name_?1$/i.test(a) && /^name_?2$/i.test(b)) { first = false; continue; }
  first = false;
  const schema = SCHEMAS.find((s) => s.toLowerCase() === schemaText?.toLowerCase()) as Schema | undefined;
  lines.push(scorePair(a, b, schema).score.toFixed(4));
  if (lines.length >= 1000) { process.stdout.write(`${lines.join('\n')}\n`); lines.length = 0; }
}
if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
