import { XMLParser } from 'fast-xml-parser';

/**
 * The goAML report schema read as data: for every element, its children in schema order,
 * whether it repeats and which simple type names its enumeration. Rendering orders a report's
 * fields by it and parsing knows which elements are lists, so neither hard-codes the layout
 * of a goAML version or of an FIU's customisation. Pure: takes the schema's text.
 */
export interface ElementDecl {
  name: string;
  /** Named type (complex or simple) if the element refers to one. */
  type?: string;
  /** Children of an inline complex type, in schema order; undefined for a simple element. */
  children?: ElementDecl[];
  /** maxOccurs > 1 on the element or on a sequence/choice around it. */
  repeated: boolean;
  /** minOccurs = 0 on the element or an enclosing group, or inside a choice. */
  optional: boolean;
}

export interface SchemaModel {
  root: ElementDecl;
  /** Named complex types: their children in schema order (extensions flattened). */
  complexTypes: Map<string, ElementDecl[]>;
  /** Named simple types with an enumeration: the accepted values. */
  enumerations: Map<string, string[]>;
  /** goaml:schemaVersion of the schema element. */
  version: string;
}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '' });

const tagOf = (n: Ordered) => Object.keys(n).find((k) => k !== ':@') ?? '';
const kids = (n: Ordered): Ordered[] => (n[tagOf(n)] as Ordered[] | undefined) ?? [];
const attr = (n: Ordered, a: string) => n[':@']?.[a];
const many = (n: Ordered) => { const m = attr(n, 'maxOccurs'); return m !== undefined && m !== '1'; };
const zero = (n: Ordered) => attr(n, 'minOccurs') === '0';

interface Ctx { repeated: boolean; optional: boolean }

/** Flattens sequences and choices into the element declarations they hold, in order. */
function particles(nodes: Ordered[], ctx: Ctx, bases: Map<string, string>): ElementDecl[] {
  const out: ElementDecl[] = [];
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === 'xs:element') out.push(element(n, ctx));
    else if (tag === 'xs:sequence' || tag === 'xs:choice') {
      out.push(...particles(kids(n), {
        repeated: ctx.repeated || many(n), optional: ctx.optional || zero(n) || tag === 'xs:choice',
      }, bases));
    } else if (tag === 'xs:complexContent') out.push(...particles(kids(n), ctx, bases));
    else if (tag === 'xs:extension') {
      // The base type's children come first; resolved later by name (see resolveExtensions).
      out.push({ name: `@extends:${attr(n, 'base')}`, repeated: false, optional: false });
      out.push(...particles(kids(n), ctx, bases));
    }
  }
  // One declaration per name: a name in two branches of a choice keeps its first place.
  const seen = new Set<string>();
  return out.filter((d) => (seen.has(d.name) ? false : (seen.add(d.name), true)));
}

function element(n: Ordered, ctx: Ctx): ElementDecl {
  const complex = kids(n).find((k) => tagOf(k) === 'xs:complexType');
  const decl: ElementDecl = {
    name: String(attr(n, 'name')), repeated: ctx.repeated || many(n), optional: ctx.optional || zero(n),
  };
  const type = attr(n, 'type');
  if (type) decl.type = type;
  if (complex) decl.children = particles(kids(complex), { repeated: false, optional: false }, new Map());
  return decl;
}

function enumeration(simple: Ordered): string[] | undefined {
  const restriction = kids(simple).find((k) => tagOf(k) === 'xs:restriction');
  if (!restriction) return undefined;
  const values = kids(restriction).filter((k) => tagOf(k) === 'xs:enumeration').map((k) => String(attr(k, 'value')));
  return values.length ? values : undefined;
}

function resolveExtensions(list: ElementDecl[], types: Map<string, ElementDecl[]>, depth = 0): ElementDecl[] {
  if (depth > 10) throw new Error('goAML schema: extension chain too deep');
  const out = list.flatMap((d) => {
    if (d.name.startsWith('@extends:')) return resolveExtensions(types.get(d.name.slice(9)) ?? [], types, depth + 1);
    if (d.children) d.children = resolveExtensions(d.children, types, depth + 1);
    return [d];
  });
  const seen = new Set<string>();
  return out.filter((d) => (seen.has(d.name) ? false : (seen.add(d.name), true)));
}

export function parseSchemaModel(xsd: string): SchemaModel {
  const doc = parser.parse(xsd) as Ordered[];
  const schema = doc.find((n) => tagOf(n) === 'xs:schema');
  if (!schema) throw new Error('goAML schema: no xs:schema element');
  const complexTypes = new Map<string, ElementDecl[]>();
  const enumerations = new Map<string, string[]>();
  let root: ElementDecl | undefined;
  for (const n of kids(schema)) {
    const tag = tagOf(n);
    if (tag === 'xs:complexType') complexTypes.set(String(attr(n, 'name')), particles(kids(n), { repeated: false, optional: false }, new Map()));
    else if (tag === 'xs:simpleType') {
      const values = enumeration(n);
      if (values) enumerations.set(String(attr(n, 'name')), values);
    } else if (tag === 'xs:element' && attr(n, 'name') === 'report') root = element(n, { repeated: false, optional: false });
  }
  if (!root) throw new Error('goAML schema: no report element');
  for (const [name, list] of complexTypes) complexTypes.set(name, resolveExtensions(list, complexTypes));
  root.children = resolveExtensions(root.children ?? [], complexTypes);
  return { root, complexTypes, enumerations, version: String(attr(schema, 'goaml:schemaVersion') ?? '') };
}

/** The children of an element: inline, or those of its named complex type; undefined if simple. */
export function childrenOf(model: SchemaModel, decl: ElementDecl): ElementDecl[] | undefined {
  if (decl.children) return decl.children;
  return decl.type ? model.complexTypes.get(decl.type) : undefined;
}

/** The declaration at a path of element names below the report (e.g. ['transaction', 't_to']). */
export function declAt(model: SchemaModel, names: readonly string[]): ElementDecl | undefined {
  let decl: ElementDecl | undefined = model.root;
  for (const name of names) {
    decl = childrenOf(model, decl)?.find((c) => c.name === name);
    if (!decl) return undefined;
  }
  return decl;
}
