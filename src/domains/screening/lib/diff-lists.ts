import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../lib/canonical-json';
import type { ListEntry } from './types';

export interface ListDiff {
  added: ListEntry[];
  modified: { before: ListEntry; after: ListEntry }[];
  removed: ListEntry[];
  unchanged: number;
}

/** Hash of everything that can change a screening result; key order and list name do not count. */
export function entryHash(e: ListEntry): string {
  const { list: _list, ...content } = e;
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** Entries are keyed by id, so a re-screen only needs the added and modified ones. */
export function diffLists(oldEntries: ListEntry[], newEntries: ListEntry[]): ListDiff {
  const before = new Map(oldEntries.map((e) => [e.id, e]));
  const seen = new Set<string>();
  const diff: ListDiff = { added: [], modified: [], removed: [], unchanged: 0 };
  for (const e of newEntries) {
    seen.add(e.id);
    const old = before.get(e.id);
    if (!old) diff.added.push(e);
    else if (entryHash(old) !== entryHash(e)) diff.modified.push({ before: old, after: e });
    else diff.unchanged++;
  }
  for (const e of oldEntries) if (!seen.has(e.id)) diff.removed.push(e);
  return diff;
}
