/**
 * Reads one sanctions list in a process of its own (see loadListApart in screening.sources.ts).
 * Arguments: the data directory and the list name; sends the entries, or { error }, to the parent.
 */
import { listSources } from './screening.sources';

const [dir, list] = process.argv.slice(2);
const send = (m: unknown, code: number) => process.send!(m, () => process.exit(code));
try {
  const source = listSources(dir).find((s) => s.list === list);
  if (!source) throw new Error(`list ${list} not found in ${dir}`);
  send({ entries: await source.load() }, 0);
} catch (err) {
  send({ error: err instanceof Error ? err.message : String(err) }, 1);
}
