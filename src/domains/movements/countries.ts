import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

/**
 * ISO 3166-1 alpha-2 codes (data/reference, the file the onboarding's country checks read), for a
 * counterparty's country. Read here rather than imported: areas share only their public surfaces.
 */
const ISO2 = new Set((JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes);

export const isCountryCode = (code: string) => ISO2.has(code);
