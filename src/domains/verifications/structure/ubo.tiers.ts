import { quota } from '../../../http/share-format';
import { chainEdges, chainNames, chainTo, isPerson, stepText, trustRoleRule, type ControlStep, type IndexedGraph } from './ubo.graph';
import type { Fraction } from './fraction';
import { UBO_RULE_LABELS, UBO_RULE_REFERENCES } from './ubo.labels';
import type { ResidualRole, StructureEdge, UboOwner, UboPath, UboReason, UboRule } from './ubo.types';

/**
 * The tiers both methods share: control of the customer (art. 20, comma 3), the residual
 * criterion (comma 5), and a trust as the customer (art. 22, comma 5). Only the ownership tier
 * (comma 2) differs between the Italian and the multiplicative reading.
 */

/** The owners found by a tier, one entry per person however many reasons it has. */
export class OwnerSet {
  private readonly owners = new Map<string, UboOwner>();
  private readonly shares = new Map<string, Fraction>();
  constructor(private readonly g: IndexedGraph) {}

  /** `share`: the exact ownership the reason gives; a person with several keeps the largest. */
  add(personId: string, reason: UboReason, share: Fraction | null = null) {
    const n = this.g.node(personId);
    const o = this.owners.get(personId) ?? {
      nodo_id: n.id, denominazione: n.denominazione, codice_fiscale: n.codice_fiscale ?? null, cod_anagrafe: n.cod_anagrafe ?? null, percentuale: null, frazione: null, motivi: [],
    };
    const best = this.shares.get(personId);
    if (share && (!best || share.cmp(best) > 0)) {
      this.shares.set(personId, share);
      o.percentuale = share.toPercent();
      o.frazione = share.toString();
    }
    o.motivi.push(reason);
    this.owners.set(personId, o);
  }

  get size() { return this.owners.size; }
  /** Largest exact share first (two shares equal to 4 decimals are still told apart), then by name. */
  list(): UboOwner[] {
    const by = (o: UboOwner) => this.shares.get(o.nodo_id);
    const order = (a: UboOwner, b: UboOwner) => {
      const [x, y] = [by(a), by(b)];
      return x && y ? y.cmp(x) : x ? -1 : y ? 1 : 0;
    };
    return [...this.owners.values()].sort((a, b) => order(a, b) || a.denominazione.localeCompare(b.denominazione, 'it'));
  }
}

export function reason(regola: UboRule, spiegazione: string, percorsi: UboPath[], percentuale: number | null = null, frazione: string | null = null, riferimento = UBO_RULE_REFERENCES[regola]): UboReason {
  return { regola, riferimento, percentuale, frazione, spiegazione, percorsi };
}

/** A path made of a control chain (possibly empty) and a final edge into the customer. */
export function path(g: IndexedGraph, personId: string, steps: ControlStep[], last: StructureEdge | null, lastText: string | null, percentuale: number | null = null): UboPath {
  const archi = [...chainEdges(steps), ...(last ? [last] : [])];
  const nodi = chainNames(g, personId, steps);
  if (last) nodi.push(g.node(last.a).denominazione);
  const testo = [...steps.map((s) => stepText(g, s, personId)), ...(lastText ? [lastText] : [])].join('; ');
  return { archi: [...new Set(archi.map((e) => e.id))], nodi, testo, percentuale, frazione: null };
}

const persons = (g: IndexedGraph) => g.nodes.filter(isPerson);

/** Comma 3: the persons who ultimately control the customer (votes, dominant influence, contract), through any chain. */
export function controlTier(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>): OwnerSet {
  const out = new OwnerSet(g);
  for (const p of persons(g)) {
    const ctrl = controls.get(p.id)!;
    const step = ctrl.get(g.root.id);
    if (!step) continue;
    const steps = chainTo(ctrl, p.id, g.root.id);
    const figure = step.voti !== null ? ` (${quota(step.voti)} dei voti)` : '';
    out.add(p.id, reason(step.regola, `${UBO_RULE_LABELS[step.regola]} di ${g.root.denominazione}${figure}${steps.length > 1 ? ', attraverso la catena di controllo' : ''}.`,
      [path(g, p.id, steps, null, null, step.voti)]));
  }
  return out;
}

/** The edges the residual criterion reads, by the rule they give (the same words: a role is its rule). */
export const RESIDUAL: Partial<Record<StructureEdge['tipo'], ResidualRole>> = { rappresentante_legale: 'rappresentante_legale', amministratore: 'amministratore', direttore: 'direttore' };

/**
 * Comma 5: the persons with powers of legal representation, administration or direction of the
 * customer. A company that is itself administrator (amministratore persona giuridica) is read
 * through its own legal representatives, who exercise the office (art. 2383 c.c. practice).
 */
export function residualTier(g: IndexedGraph): OwnerSet {
  const out = new OwnerSet(g);
  for (const e of g.into(g.root.id)) {
    const rule = RESIDUAL[e.tipo];
    if (!rule) continue;
    const holder = g.node(e.da);
    const text = `${holder.denominazione}: ${UBO_RULE_LABELS[rule].toLowerCase()} di ${g.root.denominazione}`;
    if (isPerson(holder)) {
      out.add(holder.id, reason(rule, `${UBO_RULE_LABELS[rule]} di ${g.root.denominazione} (criterio residuale).`, [path(g, holder.id, [], e, text)]));
      continue;
    }
    for (const r of g.into(holder.id).filter((x) => x.tipo === 'rappresentante_legale' && isPerson(g.node(x.da)))) {
      const p: UboPath = {
        archi: [r.id, e.id], nodi: [g.node(r.da).denominazione, holder.denominazione, g.root.denominazione],
        testo: `${g.node(r.da).denominazione} è legale rappresentante di ${holder.denominazione}; ${text}`, percentuale: null, frazione: null,
      };
      out.add(r.da, reason(rule, `Rappresenta ${holder.denominazione}, ${UBO_RULE_LABELS[rule].toLowerCase()} di ${g.root.denominazione} (criterio residuale).`, [p]));
    }
  }
  return out;
}

/**
 * A trust (or similar arrangement) as the customer, art. 22, comma 5: settlors, trustees,
 * protectors, beneficiaries and anyone else controlling it, all of them together. A role held
 * by a company (a corporate trustee) leads to the persons who control that company.
 */
export function trustTier(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>): OwnerSet {
  const out = new OwnerSet(g);
  for (const e of g.into(g.root.id)) {
    const rule: UboRule | undefined = trustRoleRule(e)
      ?? (['controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale'].includes(e.tipo) ? 'trust_controllo' : undefined);
    if (!rule) continue;
    const holder = g.node(e.da);
    const text = `${holder.denominazione}: ${UBO_RULE_LABELS[rule].toLowerCase()} (${g.root.denominazione})`;
    if (isPerson(holder)) {
      out.add(holder.id, reason(rule, `${UBO_RULE_LABELS[rule]} di ${g.root.denominazione}.`, [path(g, holder.id, [], e, text)]));
      continue;
    }
    for (const p of g.nodes.filter(isPerson)) {
      const ctrl = controls.get(p.id)!;
      if (!ctrl.has(holder.id)) continue;
      out.add(p.id, reason(rule, `Controlla ${holder.denominazione}, ${UBO_RULE_LABELS[rule].toLowerCase()} di ${g.root.denominazione}.`,
        [path(g, p.id, chainTo(ctrl, p.id, holder.id), e, text)]));
    }
  }
  return out;
}
