import type { LoadedJurisdiction } from './goaml/jurisdiction-loader';
import { renderAndValidate, type GoamlVerdict } from './goaml/package';
import type { GoamlNode } from './goaml/report-xml';

/**
 * The report a filing renders: its content with the header the classification decides
 * (report code, schema version) and defaults the composer need not ask for. Pure.
 */
export function reportOf(row: { id: string; report_code: string | null; content: unknown }, j: LoadedJurisdiction): GoamlNode {
  const content = (row.content && typeof row.content === 'object' ? row.content : {}) as GoamlNode;
  return {
    submission_code: 'E',
    entity_reference: `FIL-${row.id.slice(0, 8).toUpperCase()}`,
    currency_code_local: j.config.localCurrency,
    ...content,
    schema_version: j.config.schemaVersion,
    ...(row.report_code ? { report_code: row.report_code } : {}),
  };
}

export const verdictOf = (row: { id: string; report_code: string | null; content: unknown }, j: LoadedJurisdiction): Promise<GoamlVerdict> =>
  renderAndValidate(j, reportOf(row, j));
