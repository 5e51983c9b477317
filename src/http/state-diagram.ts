import { instance, type Viz } from '@viz-js/viz';
import type { MachineDef } from '../../workflows/lib/machine';

/**
 * Draws a machine as SVG on the server (Graphviz compiled to wasm): the page needs no
 * script, and the current state is highlighted. One render per machine and state.
 */

let vizPromise: Promise<Viz> | undefined;
const cache = new Map<string, string>();

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export interface DiagramLabels {
  states?: Record<string, string>;
  actions?: Record<string, string>;
}

export function machineToDot(m: MachineDef, current?: string, labels: DiagramLabels = {}): string {
  const lines = [
    `digraph ${quote(m.name)} {`,
    '  rankdir=LR; bgcolor="transparent";',
    '  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=11 fillcolor="#f6f8fb" color="#9aa0ac"];',
    '  edge [fontname="Helvetica" fontsize=9 color="#9aa0ac"];',
  ];
  for (const s of m.states) {
    const attrs = [`label=${quote(labels.states?.[s] ?? s)}`, `id=${quote(`state-${s}`)}`];
    if (s === current) attrs.push('fillcolor="#206bc4"', 'fontcolor="white"', 'color="#1a569d"', 'penwidth=2');
    if ((m.final ?? []).includes(s)) attrs.push('peripheries=2');
    lines.push(`  ${quote(s)} [${attrs.join(' ')}];`);
  }
  for (const t of m.transitions) {
    for (const from of t.from) {
      const label = labels.actions?.[t.action] ?? t.action;
      const suffix = t.fourEyes ? ' (4 occhi)' : '';
      lines.push(`  ${quote(from)} -> ${quote(t.to ?? from)} [label=${quote(label + suffix)}];`);
    }
  }
  lines.push('}');
  return lines.join('\n');
}

export async function stateDiagramSvg(m: MachineDef, current?: string, labels: DiagramLabels = {}): Promise<string> {
  const key = `${m.name}\u0000${current ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  vizPromise ??= instance();
  const viz = await vizPromise;
  const svg = viz.renderString(machineToDot(m, current, labels), { format: 'svg' })
    // The XML prolog and doctype are not allowed inside an HTML page.
    .replace(/^<\?xml[^>]*>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/, '').replace(/<!--[\s\S]*?-->\s*/g, '');
  cache.set(key, svg);
  return svg;
}
