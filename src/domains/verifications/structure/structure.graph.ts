import { dotToInlineSvg, DIAGRAM_STYLE } from '../../../http/state-diagram';
import { TIPO_ARCO_LABELS, TIPO_NODO_LABELS, type TipoNodo } from '../verifications.vocabulary';
import type { EdgeRow, NodeRow } from './structure.repo';
import { quota } from '../../../http/share-format';

/**
 * The structure drawn with Graphviz on the server (as the customer file's graph): owners above,
 * the customer at the bottom, an arrow from who holds, controls or acts to the entity. The tables
 * under the drawing say the same, so the image is never the only way to read it.
 */
const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const SHAPES: Record<TipoNodo, string> = { persona_fisica: 'ellipse', societa: 'box', societa_quotata: 'box', trust: 'hexagon', ente_pubblico: 'house' };
const OWNER = { fill: '#d1f0dc', border: '#2fb344', text: '#1d273b' };

export function structureDot(nodes: NodeRow[], edges: EdgeRow[], owners: Set<string>): string {
  const s = DIAGRAM_STYLE;
  const lines = [
    'digraph "struttura" {',
    '  rankdir=TB; bgcolor="transparent"; nodesep=0.5; ranksep=0.8; pad=0.2;',
    `  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=${s.stateFont} margin="0.2,0.1"`
      + ` fillcolor="${s.state.fill}" color="${s.state.border}" fontcolor="${s.state.text}"];`,
    `  edge [fontname="Helvetica" fontsize=${s.edgeFont} color="${s.other.line}" fontcolor="${s.other.text}" arrowsize=0.8];`,
  ];
  // Graphviz names nodes in the SVG's <title>: short names, not the rows' ids.
  const key = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  for (const n of nodes) {
    const kind = n.tipo === 'persona_fisica' || n.tipo === 'societa' ? '' : `\n${TIPO_NODO_LABELS[n.tipo]}`;
    const attrs = [`label=${quote(`${n.denominazione}${kind}`)}`, `shape=${SHAPES[n.tipo]}`, `id=${quote(`nodo-${key.get(n.id)}`)}`];
    if (n.tipo === 'societa_quotata') attrs.push('peripheries=2');
    if (n.radice) attrs.push(`fillcolor="${s.current.fill}"`, `fontcolor="${s.current.text}"`, `color="${s.current.border}"`, 'penwidth=2');
    else if (owners.has(n.id)) attrs.push(`fillcolor="${OWNER.fill}"`, `color="${OWNER.border}"`, 'penwidth=2');
    lines.push(`  ${quote(key.get(n.id)!)} [${attrs.join(' ')}];`);
  }
  for (const e of edges) {
    const label = e.tipo === 'partecipazione'
      ? `${quota(e.percentuale)}${e.percentuale_voti !== null ? `\nvoti ${quota(e.percentuale_voti)}` : ''}`
      : TIPO_ARCO_LABELS[e.tipo];
    const style = e.tipo === 'partecipazione' ? 'solid' : ['controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale'].includes(e.tipo) ? 'dashed' : 'dotted';
    const [da, a] = [key.get(e.da_nodo_id), key.get(e.a_nodo_id)];
    if (!da || !a) continue;
    lines.push(`  ${quote(da)} -> ${quote(a)} [label=${quote(` ${label} `)} style=${style} id=${quote(`arco-${da}-${a}-${e.tipo}`)}];`);
  }
  lines.push('}');
  return lines.join('\n');
}

export async function structureSvg(nodes: NodeRow[], edges: EdgeRow[], owners: Set<string>): Promise<string> {
  return dotToInlineSvg(structureDot(nodes, edges, owners));
}
