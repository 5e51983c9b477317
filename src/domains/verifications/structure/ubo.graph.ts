import { quota } from '../../../http/share-format';
import { Fraction } from './fraction';
import type { StructureEdge, StructureGraph, StructureNode, UboRule } from './ubo.types';

/** The structure indexed for the engine: nodes by id, edges by their target and source. */
export interface IndexedGraph {
  root: StructureNode;
  node: (id: string) => StructureNode;
  into: (id: string) => StructureEdge[];
  nodes: StructureNode[];
  edges: StructureEdge[];
}

export function indexGraph(g: StructureGraph, root: StructureNode): IndexedGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const into = new Map<string, StructureEdge[]>();
  for (const e of g.edges) {
    if (!byId.has(e.da) || !byId.has(e.a)) continue;
    into.set(e.a, [...(into.get(e.a) ?? []), e]);
  }
  return { root, node: (id) => byId.get(id)!, into: (id) => into.get(id) ?? [], nodes: g.nodes, edges: g.edges.filter((e) => byId.has(e.da) && byId.has(e.a)) };
}

export const isPerson = (n: StructureNode) => n.tipo === 'persona_fisica';
/** An entity whose ownership or control can lead further up to persons (a public body's cannot). */
export const canBeControlled = (n: StructureNode) => n.tipo === 'societa' || n.tipo === 'societa_quotata' || n.tipo === 'trust';

export const votesOf = (e: StructureEdge) => e.percentuale_voti ?? e.percentuale ?? 0;

const TRUST_ROLE_RULES: Partial<Record<StructureEdge['tipo'], UboRule>> = {
  disponente: 'trust_disponente', trustee: 'trust_trustee', protettore: 'trust_protettore', beneficiario: 'trust_beneficiario',
};
export const trustRoleRule = (e: StructureEdge) => TRUST_ROLE_RULES[e.tipo];

/** How a person came to control an entity: the rule and the edges (from the person or from entities it already controls). */
export interface ControlStep {
  entita: string;
  regola: UboRule;
  archi: StructureEdge[];
  voti: number | null;
}

/**
 * The entities a natural person controls in the sense of art. 2359, comma 1 c.c., directly or
 * through entities it controls (comma 2: the votes of controlled companies, fiduciaries and
 * interposed persons count as its own), plus the trusts in which it, or an entity it controls,
 * holds a role (art. 22, comma 5: every such person is an owner of the trust). The least fixed
 * point: an entity joins only when the person and what it already controls give control, so a
 * cross-holding cannot make a company control itself into someone's hands.
 */
export function controlOf(g: IndexedGraph, personId: string): Map<string, ControlStep> {
  const ctrl = new Map<string, ControlStep>();
  const holds = (id: string) => id === personId || ctrl.has(id);
  for (let changed = true; changed;) {
    changed = false;
    for (const x of g.nodes) {
      if (ctrl.has(x.id) || !canBeControlled(x)) continue;
      const mine = g.into(x.id).filter((e) => holds(e.da));
      if (!mine.length) continue;
      const step = controlStep(x, mine);
      if (step) { ctrl.set(x.id, step); changed = true; }
    }
  }
  return ctrl;
}

function controlStep(x: StructureNode, mine: StructureEdge[]): ControlStep | undefined {
  const shares = mine.filter((e) => e.tipo === 'partecipazione');
  const votes = shares.reduce((s, e) => s.add(Fraction.fromPercent(votesOf(e))), Fraction.ZERO);
  if (votes.cmp(Fraction.fromPercent(50)) > 0) return { entita: x.id, regola: 'controllo_maggioranza_voti', archi: shares, voti: votes.toPercent() };
  for (const tipo of ['controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale'] as const) {
    const e = mine.find((m) => m.tipo === tipo);
    if (e) return { entita: x.id, regola: x.tipo === 'trust' ? 'trust_controllo' : tipo, archi: [e], voti: null };
  }
  if (x.tipo === 'trust') {
    const e = mine.find((m) => trustRoleRule(m));
    if (e) return { entita: x.id, regola: trustRoleRule(e)!, archi: [e], voti: null };
  }
  return undefined;
}

/** The steps from the person down to `target`, dependencies first (each was added to the map before what it enabled). */
export function chainTo(ctrl: Map<string, ControlStep>, personId: string, target: string): ControlStep[] {
  const out: ControlStep[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const s = ctrl.get(id)!;
    for (const e of s.archi) if (e.da !== personId && ctrl.has(e.da)) visit(e.da);
    out.push(s);
  };
  visit(target);
  return out;
}

/** The sentence of one control step: "Mario Rossi controlla Alfa S.r.l. con la maggioranza dei voti (60%)". */
export function stepText(g: IndexedGraph, s: ControlStep, personId: string): string {
  const x = g.node(s.entita).denominazione;
  const holders = [...new Set(s.archi.map((e) => e.da))];
  // Several holders are the person and entities it controls: the person is who controls.
  const who = g.node(holders.length > 1 ? personId : holders[0]!).denominazione;
  switch (s.regola) {
    case 'controllo_maggioranza_voti': {
      if (s.voti === null) return `${who} controlla ${x} con la maggioranza dei voti (accordo o patto registrato)`;
      const parts = s.archi.length > 1 ? ` = ${s.archi.map((e) => `${quota(votesOf(e))} di ${g.node(e.da).denominazione}`).join(' + ')}` : '';
      return `${who} controlla ${x} con la maggioranza dei voti (${quota(s.voti)}${parts})`;
    }
    case 'influenza_dominante': return `${who} esercita un'influenza dominante su ${x}`;
    case 'controllo_contrattuale': return `${who} controlla ${x} per vincoli contrattuali`;
    case 'trust_controllo': return `${who} esercita il controllo sul trust ${x}`;
    case 'trust_disponente': return `${who} è disponente del trust ${x}`;
    case 'trust_trustee': return `${who} è trustee del trust ${x}`;
    case 'trust_protettore': return `${who} è guardiano del trust ${x}`;
    case 'trust_beneficiario': return `${who} è beneficiario del trust ${x}`;
    default: return `${who} controlla ${x}`;
  }
}

/** The edges and names of a chain of control steps, top-down. */
export function chainEdges(steps: ControlStep[]): StructureEdge[] {
  return steps.flatMap((s) => s.archi);
}
export function chainNames(g: IndexedGraph, personId: string, steps: ControlStep[]): string[] {
  return [g.node(personId).denominazione, ...steps.map((s) => g.node(s.entita).denominazione)];
}
