import { resolve } from 'node:path';
import { loadAllLists, defaultSanctionsDir, type LoadedLists } from '../../../src/domains/screening/lib/load-all';
import { Screener } from '../../../src/domains/screening/lib/match/screener';

export const SANCTIONS_DIR = defaultSanctionsDir();
export const DEV_CASES_DIR = resolve(SANCTIONS_DIR, '..', 'screening-dev-cases');

let lists: Promise<LoadedLists> | undefined;
let screener: Promise<Screener> | undefined;

/** All lists are imported once per test process and shared by the screening suites. */
export function allLists(): Promise<LoadedLists> {
  lists ??= loadAllLists(SANCTIONS_DIR);
  return lists;
}

export function sharedScreener(): Promise<Screener> {
  screener ??= allLists().then((l) => new Screener(l.entries));
  return screener;
}
