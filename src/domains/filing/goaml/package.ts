import type { LoadedJurisdiction } from './jurisdiction-loader';
import { renderReportXml, type GoamlNode } from './report-xml';
import { businessRules, RULE_CODES, type FilingFinding } from './rules';
import { validateAgainstSchema } from './schema-validator';

/** A rendered goAML package and the verdict on it: business rules and the XML Schema. */
export interface GoamlVerdict {
  xml: string;
  valid: boolean;
  findings: FilingFinding[];
  jurisdiction: string;
  schemaVersion: string;
}

export async function renderAndValidate(j: LoadedJurisdiction, report: GoamlNode): Promise<GoamlVerdict> {
  const { xml, unknown } = renderReportXml(j.model, report);
  const findings: FilingFinding[] = [
    ...unknown.map((u) => ({ code: RULE_CODES.UNKNOWN_FIELD, path: u.path, source: 'rules' as const, message: `${u.name} is not a field of the goAML ${j.config.schemaVersion} schema here` })),
    ...businessRules(j.config, j.codeLists, report),
    ...(await validateAgainstSchema(j.model, j.schemaText, xml)),
  ];
  return { xml, valid: findings.length === 0, findings, jurisdiction: j.config.id, schemaVersion: j.config.schemaVersion };
}
