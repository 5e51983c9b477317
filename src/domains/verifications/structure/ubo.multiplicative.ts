import { quota } from '../../../http/share-format';
import { Fraction, solveExact } from './fraction';
import { chainTo, isPerson, trustRoleRule, type ControlStep, type IndexedGraph } from './ubo.graph';
import { MULTIPLICATIVE_REFERENCE, UBO_RULE_LABELS } from './ubo.labels';
import { OwnerSet, path, reason } from './ubo.tiers';
import type { StructureEdge, UboPath } from './ubo.types';

const MAX_PATHS = 50;
const MAX_CYCLES = 20;

/**
 * The multiplicative method: a holder's effective share of the customer is the sum, over every
 * path of shareholdings from the holder to the customer, of the product of the percentages along
 * it. With cross-holdings the paths are infinitely many; their sum is exact: x = (I − A)⁻¹ e_R,
 * A[i][j] the share of j held by i, solved in rational numbers (x_i = [i = R] + Σ_j A[i][j]·x_j).
 * Only the holders that reach the customer enter the system.
 */
export function effectiveShares(g: IndexedGraph): { shares: Map<string, Fraction>; singular: boolean } {
  const shares = g.edges.filter(isShare(g));
  const reach = new Set([g.root.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of shares) if (reach.has(e.a) && !reach.has(e.da)) { reach.add(e.da); grew = true; }
  }
  const ids = [...reach];
  const at = new Map(ids.map((id, i) => [id, i]));
  const m = ids.map((_, i) => ids.map((_, j) => (i === j ? Fraction.ONE : Fraction.ZERO)));
  for (const e of shares) {
    const i = at.get(e.da);
    const j = at.get(e.a);
    if (i === undefined || j === undefined) continue;
    m[i]![j] = m[i]![j]!.sub(Fraction.fromPercent(e.percentuale ?? 0));
  }
  const x = solveExact(m, ids.map((id) => (id === g.root.id ? Fraction.ONE : Fraction.ZERO)));
  if (!x) return { shares: new Map(), singular: true };
  return { shares: new Map(ids.map((id, i) => [id, x[i]!])), singular: false };
}

/** Shareholdings between entities that can hold and be held (a person or a public body is never held). */
const isShare = (g: IndexedGraph) => (e: StructureEdge) =>
  e.tipo === 'partecipazione' && e.percentuale !== null && !isPerson(g.node(e.a)) && g.node(e.a).tipo !== 'ente_pubblico';

/** The simple paths (no node twice) from a holder to the customer, with their products: what the page lists. */
export function simplePaths(g: IndexedGraph, from: string): { edges: StructureEdge[]; product: Fraction }[] {
  const out: { edges: StructureEdge[]; product: Fraction }[] = [];
  const shares = g.edges.filter(isShare(g));
  const walk = (at: string, seen: Set<string>, edges: StructureEdge[], product: Fraction) => {
    if (out.length >= MAX_PATHS) return;
    if (at === g.root.id) { out.push({ edges, product }); return; }
    for (const e of shares.filter((s) => s.da === at && !seen.has(s.a))) {
      walk(e.a, new Set([...seen, e.a]), [...edges, e], product.mul(Fraction.fromPercent(e.percentuale ?? 0)));
    }
  };
  walk(from, new Set([from]), [], Fraction.ONE);
  return out;
}

/** The cross-holdings: simple cycles of shareholdings (each found once, from its first node), with their products. */
export function shareCycles(g: IndexedGraph): { nodes: string[]; product: Fraction }[] {
  const shares = g.edges.filter(isShare(g));
  const order = new Map(g.nodes.map((n, i) => [n.id, i]));
  const out: { nodes: string[]; product: Fraction }[] = [];
  for (const start of g.nodes) {
    const s = order.get(start.id)!;
    const walk = (at: string, nodes: string[], product: Fraction) => {
      for (const e of shares.filter((x) => x.da === at)) {
        if (out.length >= MAX_CYCLES) return;
        const next = product.mul(Fraction.fromPercent(e.percentuale ?? 0));
        if (e.a === start.id) out.push({ nodes: [...nodes, start.id], product: next });
        else if (order.get(e.a)! > s && !nodes.includes(e.a)) walk(e.a, [...nodes, e.a], next);
      }
    };
    walk(start.id, [start.id], Fraction.ONE);
  }
  return out;
}

/** The ownership tier by the multiplicative method: persons, and the role holders of trusts, above the threshold. */
export function multiplicativeOwnership(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>, soglia: number) {
  const owners = new OwnerSet(g);
  const { shares, singular } = effectiveShares(g);
  const note: string[] = [];
  const threshold = Fraction.fromPercent(soglia);
  const name = (id: string) => g.node(id).denominazione;
  if (singular) {
    note.push('Le partecipazioni incrociate formano un gruppo di società che si possiedono interamente a vicenda, senza soci esterni: nessuna quota effettiva è calcolabile.');
    return { owners, shares, note };
  }
  const cycles = shareCycles(g);
  for (const c of cycles) {
    note.push(`Partecipazione incrociata ${c.nodes.map(name).join(' → ')} (${quota(c.product, soglia)}): i percorsi che la ripercorrono sono sommati esattamente (serie geometrica, (I − A)⁻¹), senza tagliare il ciclo.`);
  }
  for (const p of g.nodes.filter(isPerson)) {
    const x = shares.get(p.id) ?? Fraction.ZERO;
    if (x.cmp(threshold) <= 0) continue;
    const paths = simplePaths(g, p.id);
    const simple = paths.reduce((s, q) => s.add(q.product), Fraction.ZERO);
    const viaCycles = x.sub(simple);
    const percorsi: UboPath[] = paths.map((q) => ({
      archi: q.edges.map((e) => e.id), nodi: [p.denominazione, ...q.edges.map((e) => name(e.a))],
      testo: q.edges.map((e) => `${name(e.da)} detiene il ${quota(e.percentuale, soglia)} di ${name(e.a)}`).join('; ')
        + (q.edges.length > 1 ? ` — prodotto ${q.edges.map((e) => quota(e.percentuale, soglia)).join(' × ')} = ${quota(q.product, soglia)}` : ''),
      percentuale: q.product.toPercent(), frazione: q.product.toString(),
    }));
    const direct = paths.length === 1 && paths[0]!.edges.length === 1 && viaCycles.isZero();
    const sum = viaCycles.isZero()
      ? `somma dei prodotti lungo ${paths.length === 1 ? 'il percorso' : `i ${paths.length} percorsi`} = ${quota(x, soglia)}`
      : `percorsi semplici ${quota(simple, soglia)} + percorsi attraverso le partecipazioni incrociate ${quota(viaCycles, soglia)} = ${quota(x, soglia)} (${x.toString()})`;
    owners.add(p.id, reason(direct ? 'proprieta_diretta' : 'proprieta_indiretta',
      `Quota effettiva del ${quota(x, soglia)} di ${g.root.denominazione}: ${sum}, oltre la soglia del ${quota(soglia)}.`,
      percorsi, x.toPercent(), x.toString(), MULTIPLICATIVE_REFERENCE), x);
  }
  // A trust holding more than the threshold: its settlors, trustees, protectors and beneficiaries (art. 22, comma 5).
  for (const t of g.nodes.filter((n) => n.tipo === 'trust' && n.id !== g.root.id)) {
    const x = shares.get(t.id) ?? Fraction.ZERO;
    if (x.cmp(threshold) <= 0) continue;
    for (const e of g.into(t.id)) {
      const rule = trustRoleRule(e);
      if (!rule) continue;
      const text = `${name(e.da)}: ${UBO_RULE_LABELS[rule].toLowerCase()} di ${t.denominazione}, che detiene effettivamente il ${quota(x, soglia)} di ${g.root.denominazione}`;
      const holders = isPerson(g.node(e.da)) ? [{ id: e.da, steps: [] as ControlStep[] }]
        : g.nodes.filter((p) => isPerson(p) && controls.get(p.id)!.has(e.da)).map((p) => ({ id: p.id, steps: chainTo(controls.get(p.id)!, p.id, e.da) }));
      for (const h of holders) {
        const q = path(g, h.id, h.steps, e, text, x.toPercent());
        owners.add(h.id, reason(rule, `${UBO_RULE_LABELS[rule]} di ${t.denominazione}, la cui quota effettiva (${quota(x, soglia)}) supera la soglia.`, [q], x.toPercent(), x.toString()), x);
      }
    }
  }
  for (const n of g.nodes.filter((n) => (n.tipo === 'ente_pubblico' || n.tipo === 'societa_quotata') && n.id !== g.root.id)) {
    const x = shares.get(n.id) ?? Fraction.ZERO;
    if (x.cmp(threshold) > 0 && !g.into(n.id).some((e) => e.tipo === 'partecipazione')) {
      note.push(`${n.denominazione} detiene effettivamente il ${quota(x, soglia)} di ${g.root.denominazione}: ${n.tipo === 'ente_pubblico' ? 'ente pubblico' : 'società quotata senza soci rilevanti registrati'}, la quota non risale a persone fisiche.`);
    }
  }
  return { owners, shares, note };
}
