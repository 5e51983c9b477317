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
  return (await validateManyAgainstSchema(model, schemaText, [xml]))[0]!;
}

/** Several reports in one run of the validator (the schema is compiled once): the findings of each. */
export async function validateManyAgainstSchema(model: SchemaModel, schemaText: string, xmls: readonly string[]): Promise<FilingFinding[][]> {
  const names = xmls.map((_x, i) => `report-${i}.xml`);
  const result = await validateXML({
    xml: xmls.map((contents, i) => ({ fileName: names[i]!, contents })),
    schema: { fileName: 'goAMLSchema.xsd', contents: schemaText },
  });
  const out: FilingFinding[][] = xmls.map(() => []);
  if (result.valid) return out;
  const paths = new Map<number, string[]>();
  for (const e of result.errors) {
    const i = names.indexOf(e.loc?.fileName ?? '');
    // A message that names no file (a schema problem) concerns every report.
    const targets = i >= 0 ? [i] : xmls.map((_x, k) => k);
    for (const k of targets) {
      if (!paths.has(k)) paths.set(k, linePaths(model, xmls[k]!));
      out[k]!.push({
        code: SCHEMA_INVALID, source: 'schema',
        path: i >= 0 && e.loc?.lineNumber ? paths.get(k)![e.loc.lineNumber] ?? '' : '',
        message: e.message.replace(/^Schemas validity error : /, ''),
      });
    }
  }
  return out;
}
