import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { projectRoot } from '../../../config';
import { SOS_XSD_FILE } from './sos.xml-mapping';

let schema: Promise<string> | undefined;
const loadSchema = () => (schema ??= readFile(join(projectRoot, 'public', 'schemas', SOS_XSD_FILE), 'utf8'));

export interface XmlVerdict { valid: boolean; errors: string[] }

/** Validates an exported report against the published schema with libxml2 (xmllint compiled to wasm), never by hand. */
export async function validateSosXml(xml: string): Promise<XmlVerdict> {
  const r = await validateXML({ xml: [{ fileName: 'segnalazione.xml', contents: xml }], schema: [{ fileName: SOS_XSD_FILE, contents: await loadSchema() }] });
  return { valid: r.valid, errors: r.errors.map((e) => e.message) };
}
