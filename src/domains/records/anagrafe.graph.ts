import { quota } from '../../http/share-format';
import { dotToInlineSvg, DIAGRAM_STYLE } from '../../http/state-diagram';
import { labelOf, RAPPORTO_TIPO_LABELS, RUOLO_RAPPORTO_LABELS, TIPO_CONTROLLO_LABELS, TIPO_LEGAME_LABELS } from './anagrafe.labels';
import type { CustomerLink, CustomerRelationship } from './anagrafe.read';

/**
 * The customer file's graph: the customer in the middle, the subjects it is linked to (beneficial
 * owners, representatives, companies it owns) and its relationships, drawn with Graphviz on the
 * server like the state diagrams. The same facts are in the tables under it, so the drawing is
 * an image with a description, not the only way to read them.
 */

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const pct = (v: string | number | null) => (v === null || v === undefined ? '' : ` ${quota(v)}`);

export interface GraphCustomer { cod_anagrafe: string; denominazione: string; tipo_soggetto: string }

export function customerGraphDot(c: GraphCustomer, links: CustomerLink[], relationships: CustomerRelationship[]): string {
  const s = DIAGRAM_STYLE;
  const lines = [
    `digraph ${quote(`fascicolo-${c.cod_anagrafe}`)} {`,
    '  rankdir=LR; bgcolor="transparent"; nodesep=0.4; ranksep=1.1; pad=0.2;',
    `  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=${s.stateFont} margin="0.2,0.1"`
      + ` fillcolor="${s.state.fill}" color="${s.state.border}" fontcolor="${s.state.text}"];`,
    `  edge [fontname="Helvetica" fontsize=${s.edgeFont} color="${s.other.line}" fontcolor="${s.other.text}" arrowsize=0.8];`,
    `  ${quote(c.cod_anagrafe)} [label=${quote(`${c.denominazione}\n${c.cod_anagrafe}`)} fillcolor="${s.current.fill}" fontcolor="${s.current.text}" color="${s.current.border}" penwidth=2 id=${quote(`soggetto-${c.cod_anagrafe}`)}];`,
  ];
  const seen = new Set([c.cod_anagrafe]);
  for (const l of links) {
    const other = l.altro;
    if (!seen.has(other.cod_anagrafe)) {
      seen.add(other.cod_anagrafe);
      const shape = other.tipo_soggetto === 'persona_fisica' ? 'ellipse' : 'box';
      lines.push(`  ${quote(other.cod_anagrafe)} [label=${quote(`${other.denominazione}\n${other.cod_anagrafe}`)} shape=${shape} id=${quote(`soggetto-${other.cod_anagrafe}`)}${l.attivo ? '' : ' style="rounded,dashed"'}];`);
    }
    const [from, to] = l.direzione === 'da' ? [c.cod_anagrafe, other.cod_anagrafe] : [other.cod_anagrafe, c.cod_anagrafe];
    const kind = labelOf(TIPO_LEGAME_LABELS, l.tipo);
    const control = l.tipo_controllo ? `\n${labelOf(TIPO_CONTROLLO_LABELS, l.tipo_controllo)}` : '';
    // A beneficial owner's edge points at the owner: "X has Y as beneficial owner" reads left to right.
    lines.push(`  ${quote(from)} -> ${quote(to)} [label=${quote(` ${kind}${pct(l.percentuale)}${control} `)}${l.attivo ? '' : ' style=dashed'}];`);
  }
  for (const r of relationships) {
    const id = `rapporto-${r.cod_rapporto}`;
    lines.push(`  ${quote(id)} [label=${quote(`${r.cod_rapporto}\n${labelOf(RAPPORTO_TIPO_LABELS, r.tipo)}`)} shape=folder id=${quote(id)}${r.stato === 'chiuso' ? ' style="filled,dashed"' : ''}];`);
    lines.push(`  ${quote(c.cod_anagrafe)} -> ${quote(id)} [label=${quote(` ${labelOf(RUOLO_RAPPORTO_LABELS, r.ruolo)} `)} arrowhead=none];`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** What the page shows: the drawing and a sentence saying what it holds (the image's description). */
export async function customerGraph(c: GraphCustomer, links: CustomerLink[], relationships: CustomerRelationship[]) {
  const subjects = new Set(links.map((l) => l.altro.cod_anagrafe)).size;
  return {
    svg: await dotToInlineSvg(customerGraphDot(c, links, relationships)),
    description: `Grafo dei legami di ${c.denominazione}: ${subjects} ${subjects === 1 ? 'soggetto collegato' : 'soggetti collegati'}, `
      + `${relationships.length} ${relationships.length === 1 ? 'rapporto' : 'rapporti'}.`,
    empty: links.length === 0 && relationships.length === 0,
  };
}
