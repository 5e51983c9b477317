import { validateXML } from 'xmllint-wasm';
import { linePaths } from './report-xml';
import type { FilingFinding } from './rules';
import type { SchemaModel } from './xsd-model';

/**
 * Validation against the jurisdiction's XML Schema with libxml2 (xmllint compiled to
 * WebAssembly): a real XSD validator, never a hand-written check. Each message is mapped
 * to the path of the element on its line (the renderer writes one element per line).
 */
export const SCHEMA_INVALID = 'GOAML_SCHEMA_INVALID';

export async function validateAgainstSchema(model: SchemaModel, schemaText: string, xml: string): Promise<FilingFinding[]> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: 'goAMLSchema.xsd', contents: schemaText },
  });
  if (result.valid) return [];
  const paths = linePaths(model, xml);
  return result.errors.map((e) => ({
    code: SCHEMA_INVALID, source: 'schema' as const,
    path: e.loc?.lineNumber ? paths[e.loc.lineNumber] ?? '' : '',
    message: e.message.replace(/^Schemas validity error : /, ''),
  }));
}
