import { instance, type Viz } from '@viz-js/viz';
import type { MachineDef } from '../../workflows/lib/machine';

/**
 * Draws a machine as SVG on the server (Graphviz compiled to wasm): the page needs no
 * script. The current state is filled, and the transitions the user may take now are drawn
 * bold and coloured, so "where are we, what can I do" reads at a glance. One render per
 * machine, state and set of allowed actions.
 */

let vizPromise: Promise<Viz> | undefined;
const cache = new Map<string, string>();

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export interface DiagramLabels {
  states?: Record<string, string>;
  actions?: Record<string, string>;
}

export interface DiagramOptions {
  current?: string | undefined;
  /** The actions this user may take now (the machine's allowedActions for the user). */
  allowed?: readonly string[] | undefined;
  labels?: DiagramLabels | undefined;
  /** Graphviz's rankdir: left to right (the default), or top to bottom for a machine too wide for the page. */
  direction?: 'LR' | 'TB' | undefined;
}

/**
 * The widest drawing (px) that fits the full-width process card on a 1280 px screen beside the
 * navigation. A machine drawn wider from left to right is drawn from top to bottom instead
 * (when that is narrower), so it fits without being scaled down; the card still scrolls sideways
 * for what fits neither way.
 */
export const DIAGRAM_FIT_WIDTH = 960;

/**
 * The colours of the drawing, shared with the page's legend (views/macros/process.njk).
 * Text colours keep 4.5:1 on white (WCAG AA); sizes are pixels at 100% zoom, since the SVG
 * is sized in px below.
 */
export const DIAGRAM_STYLE = {
  stateFont: 14,
  edgeFont: 13,
  current: { fill: '#206bc4', border: '#1a569d', text: '#ffffff' },
  state: { fill: '#f6f8fb', border: '#8a93a3', text: '#1d273b' },
  allowed: { line: '#1a569d', text: '#1a569d' },
  other: { line: '#9aa0ac', text: '#4a5261' },
} as const;

/** A transition the user may take now: it leaves the current state and its action is allowed. */
const isAllowedNow = (from: string, action: string, o: DiagramOptions) =>
  from === o.current && (o.allowed ?? []).includes(action);

export function machineToDot(m: MachineDef, o: DiagramOptions = {}): string {
  const s = DIAGRAM_STYLE;
  const labels = o.labels ?? {};
  const lines = [
    `digraph ${quote(m.name)} {`,
    `  rankdir=${o.direction ?? 'LR'}; bgcolor="transparent"; nodesep=0.5; ranksep=${o.direction === 'TB' ? 0.6 : 0.9}; pad=0.2;`,
    // Graphviz measures text with Helvetica's metrics (a PostScript name it knows); the margin leaves room for a wider fallback font.
    `  node [shape=box style="rounded,filled" fontname="Helvetica" fontsize=${s.stateFont} margin="0.25,0.12"`
      + ` fillcolor="${s.state.fill}" color="${s.state.border}" fontcolor="${s.state.text}"];`,
    `  edge [fontname="Helvetica" fontsize=${s.edgeFont} color="${s.other.line}" fontcolor="${s.other.text}" arrowsize=0.8];`,
  ];
  const edgeAttrs = (from: string, actions: string[]) => {
    const text = actions.map((a) => (labels.actions?.[a] ?? a) + (m.transitions.find((t) => t.action === a)?.fourEyes ? ' (4 occhi)' : ''));
    // One name per line: DOT's \n, put between the quoted names (quote would escape its backslash).
    const label = text.map((x) => quote(` ${x} `).slice(1, -1)).join('\\n');
    const attrs = [`label="${label}"`, `id=${quote(`edge-${from}-${actions.join('+')}`)}`];
    if (actions.some((a) => isAllowedNow(from, a, o))) {
      attrs.push(`color="${s.allowed.line}"`, `fontcolor="${s.allowed.text}"`, 'penwidth=3', 'fontname="Helvetica-Bold"', 'class="allowed"');
    }
    return attrs;
  };
  for (const st of m.states) {
    const attrs = [`label=${quote(labels.states?.[st] ?? st)}`, `id=${quote(`state-${st}`)}`];
    if (st === o.current) {
      attrs.push(`fillcolor="${s.current.fill}"`, `fontcolor="${s.current.text}"`, `color="${s.current.border}"`, 'penwidth=2', 'class="current"');
    }
    if ((m.final ?? []).includes(st)) attrs.push('peripheries=2');
    lines.push(`  ${quote(st)} [${attrs.join(' ')}];`);
  }
  // Actions that keep the state are drawn as one loop per state, their names one per line: loops
  // drawn one per action pile up on the node and hide each other's labels.
  const loops = new Map<string, string[]>();
  for (const t of m.transitions) {
    for (const from of t.from) {
      if ((t.to ?? from) === from) { loops.set(from, [...(loops.get(from) ?? []), t.action]); continue; }
      lines.push(`  ${quote(from)} -> ${quote(t.to!)} [${edgeAttrs(from, [t.action]).join(' ')}];`);
    }
  }
  for (const [state, actions] of loops) lines.push(`  ${quote(state)} -> ${quote(state)} [${edgeAttrs(state, actions).join(' ')}];`);
  lines.push('}');
  return lines.join('\n');
}

const widthOf = (svg: string) => Number(/^<svg[^>]*? width="([\d.]+)"/.exec(svg)?.[1] ?? 0);

export async function stateDiagramSvg(m: MachineDef, o: DiagramOptions = {}): Promise<string> {
  const key = [m.name, o.current ?? '', [...(o.allowed ?? [])].sort().join(',')].join('\u0000');
  const hit = cache.get(key);
  if (hit) return hit;
  let svg = await dotToInlineSvg(machineToDot(m, o));
  if (widthOf(svg) > DIAGRAM_FIT_WIDTH) {
    const tall = await dotToInlineSvg(machineToDot(m, { ...o, direction: 'TB' }));
    if (widthOf(tall) < widthOf(svg)) svg = tall;
  }
  cache.set(key, svg);
  return svg;
}

/**
 * Any Graphviz drawing as SVG to put inside a page (one wasm instance for the process: the state
 * diagrams and the customer file's graph of links share it).
 */
export async function dotToInlineSvg(dot: string): Promise<string> {
  vizPromise ??= instance();
  const viz = await vizPromise;
  return viz.renderString(dot, { format: 'svg' })
    // The XML prolog and doctype are not allowed inside an HTML page.
    .replace(/^<\?xml[^>]*>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/, '').replace(/<!--[\s\S]*?-->\s*/g, '')
    // Sized in px rather than pt (1pt = 1.33px): a 14-point label is then 14 px on screen, and the
    // page never scales the drawing down (a wide machine scrolls instead).
    .replace(/<svg([^>]*?) width="([\d.]+)pt" height="([\d.]+)pt"/, '<svg$1 width="$2" height="$3"');
}

/** What a process page shows of its machine: the drawing, and the same facts as plain text. */
export interface StateDiagramView {
  /** Names the drawing for assistive technology (the text beside it says the same). */
  title: string;
  svg: string;
  style: typeof DIAGRAM_STYLE;
  /** final: the process is over (no transition leaves the state, for anyone). */
  current: { state: string; label: string; final: boolean } | null;
  /** The actions the user may take now, each with the state it leads to (none: the record stays). */
  actions: { action: string; label: string; to: string | null; toLabel: string | null; fourEyes: boolean }[];
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export async function stateDiagramView(m: MachineDef, o: DiagramOptions & { title?: string } = {}): Promise<StateDiagramView> {
  const labels = o.labels ?? {};
  const stateLabel = (st: string) => labels.states?.[st] ?? st;
  const actions = o.current === undefined ? [] : m.transitions
    .filter((t) => t.from.includes(o.current!) && (o.allowed ?? []).includes(t.action))
    .map((t) => ({
      action: t.action, label: labels.actions?.[t.action] ?? t.action, to: t.to ?? null, toLabel: t.to ? stateLabel(t.to) : null, fourEyes: !!t.fourEyes,
    }));
  const title = o.title ?? 'Diagramma degli stati';
  const svg = (await stateDiagramSvg(m, o)).replace(/^<svg /, `<svg role="img" aria-label="${escapeAttr(title)}" `);
  return {
    title,
    svg,
    style: DIAGRAM_STYLE,
    current: o.current === undefined ? null : { state: o.current, label: stateLabel(o.current), final: (m.final ?? []).includes(o.current) },
    actions,
  };
}
