import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { childrenOf, type ElementDecl, type SchemaModel } from './xsd-model';

/**
 * A filing's structured content is the goAML report as a JSON tree keyed by goAML element
 * names: a field is a string, a group an object, a repeated element an array. Rendering
 * writes the elements in the schema's order (the JSON's key order does not matter) and one
 * element per line, so a validator's line number leads back to a field path. Pure.
 */
export type GoamlValue = string | GoamlNode | GoamlValue[];
export interface GoamlNode { [name: string]: GoamlValue }

export interface UnknownField { path: string; name: string }

const builder = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: false, processEntities: true });

/** Orders a node's keys by the schema; keys the schema does not know are reported, not written. */
function ordered(model: SchemaModel, decl: ElementDecl, node: GoamlNode, path: string, unknown: UnknownField[]): Record<string, unknown> {
  const children = childrenOf(model, decl) ?? [];
  const known = new Set(children.map((c) => c.name));
  for (const key of Object.keys(node)) if (!known.has(key)) unknown.push({ path: `${path}.${key}`.replace(/^\./, ''), name: key });
  const out: Record<string, unknown> = {};
  for (const child of children) {
    const value = node[child.name];
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    const rendered = items.map((item, i) => {
      const at = `${path}.${child.name}${Array.isArray(value) ? `[${i}]` : ''}`.replace(/^\./, '');
      return typeof item === 'object' && !Array.isArray(item) ? ordered(model, child, item, at, unknown) : String(item);
    });
    out[child.name] = Array.isArray(value) ? rendered : rendered[0];
  }
  return out;
}

export function renderReportXml(model: SchemaModel, report: GoamlNode): { xml: string; unknown: UnknownField[] } {
  const unknown: UnknownField[] = [];
  const body = builder.build({ report: ordered(model, model.root, report, '', unknown) }) as string;
  return { xml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`, unknown };
}

/** The element names declared repeated anywhere in the schema, keyed by their parent's path. */
function repeatedPaths(model: SchemaModel): (path: string) => boolean {
  const cache = new Map<string, boolean>();
  return (jpath: string) => {
    const hit = cache.get(jpath);
    if (hit !== undefined) return hit;
    const names = jpath.split('.').slice(1);
    let decl: ElementDecl | undefined = model.root;
    for (const name of names) decl = decl ? childrenOf(model, decl)?.find((c) => c.name === name) : undefined;
    const repeated = decl?.repeated ?? false;
    cache.set(jpath, repeated);
    return repeated;
  };
}

/** Reads a goAML report into the JSON tree (values kept as written: no number or date coercion). */
export function parseReportXml(model: SchemaModel, xml: string): GoamlNode {
  const isRepeated = repeatedPaths(model);
  const parser = new XMLParser({
    ignoreAttributes: true, parseTagValue: false, trimValues: true, ignoreDeclaration: true,
    isArray: (_name, jpath) => isRepeated(String(jpath)),
  });
  const doc = parser.parse(xml, true) as { report?: GoamlNode };
  if (!doc.report || typeof doc.report !== 'object') throw new Error('not a goAML report: no <report> element');
  return doc.report;
}

/** Path of the element on each line of a rendered report (1-based), for validator messages. */
export function linePaths(model: SchemaModel, xml: string): string[] {
  const stack: { decl: ElementDecl | undefined; seen: Map<string, number>; label: string }[] = [
    { decl: model.root, seen: new Map(), label: '' },
  ];
  const out: string[] = [''];
  const label = () => stack.slice(1).map((s) => s.label).join('.');
  for (const line of xml.split('\n')) {
    const open = /^\s*<([A-Za-z_][\w.-]*)>/.exec(line)?.[1];
    const close = /<\/([A-Za-z_][\w.-]*)>\s*$/.exec(line)?.[1] ?? (/^\s*<[A-Za-z_][\w.-]*\/>\s*$/.test(line) ? open : undefined);
    if (open && open !== 'report') {
      const top = stack[stack.length - 1]!;
      const decl = top.decl ? childrenOf(model, top.decl)?.find((c) => c.name === open) : undefined;
      const i = top.seen.get(open) ?? 0;
      top.seen.set(open, i + 1);
      stack.push({ decl, seen: new Map(), label: decl?.repeated ? `${open}[${i}]` : open });
    }
    out.push(label());
    if (close && close !== 'report' && stack.length > 1) stack.pop();
  }
  return out;
}
