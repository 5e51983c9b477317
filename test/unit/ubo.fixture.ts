import type { StructureEdge, StructureGraph, StructureNode, UboMethodResult, UboResult } from '../../src/domains/verifications/structure/ubo.types';
import type { TipoArco, TipoNodo } from '../../src/domains/verifications/verifications.vocabulary';

/**
 * A small builder for hand-computed structures: nodes are named by their id (readable in the
 * assertions), edges read "da holds/controls/acts for a".
 */
export class G {
  nodes: StructureNode[] = [];
  edges: StructureEdge[] = [];

  root(id: string, tipo: TipoNodo = 'societa') { this.nodes.push({ id, tipo, denominazione: id, radice: true }); return this; }
  person(...ids: string[]) { for (const id of ids) this.nodes.push({ id, tipo: 'persona_fisica', denominazione: id, radice: false }); return this; }
  entity(id: string, tipo: TipoNodo = 'societa') { this.nodes.push({ id, tipo, denominazione: id, radice: false }); return this; }
  holds(da: string, a: string, percentuale: number, percentuale_voti: number | null = null) {
    this.edges.push({ id: `${da}>${a}`, da, a, tipo: 'partecipazione', percentuale, percentuale_voti });
    return this;
  }
  rel(da: string, tipo: TipoArco, a: string) {
    this.edges.push({ id: `${da}-${tipo}>${a}`, da, a, tipo, percentuale: null, percentuale_voti: null });
    return this;
  }
  get graph(): StructureGraph { return { nodes: this.nodes, edges: this.edges }; }
}

/** "P:40" per owner, sorted, for compact assertions; the percentage left out when the rule has none. */
export const owners = (m: UboMethodResult) => m.titolari.map((o) => (o.percentuale === null ? o.nodo_id : `${o.nodo_id}:${o.percentuale}`)).sort();
export const rules = (m: UboMethodResult, id: string) => m.titolari.find((o) => o.nodo_id === id)?.motivi.map((x) => x.regola) ?? [];
export const diffIds = (r: UboResult) => r.differenze.map((d) => d.nodo_id).sort();
