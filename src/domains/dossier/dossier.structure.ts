import type { Knex } from 'knex';
import { quota, type ExactShare } from '../../http/share-format';
import { readCustomerRecord, TIPO_CONTROLLO_LABELS, TIPO_LEGAME_LABELS, type CustomerLink } from '../records';
import {
  computeUbo, UBO_CRITERION_LABELS, UBO_RULE_LABELS, type StructureEdge, type StructureGraph, type StructureNode, type TipoArco, type UboResult,
} from '../verifications';

/**
 * The customer's whole ownership chain read from the registry's links (customer → holders →
 * their holders...), handed to the beneficial-owner engine of the verifications area
 * (computeUbo, docs/ubo.md), so the dossier draws and names the same owners a KYB would compute
 * on the same structure. Read one subject after the other in the tenant transaction (RLS applies).
 */

export interface DossierChainNode {
  cod_anagrafe: string; denominazione: string; persona: boolean; pep: boolean;
  /** Distance from the customer (0) along the holders' links: the row it is drawn in. */
  livello: number;
  /** "Titolare effettivo 36%" when the engine names it an owner (the effective share, when it has one). */
  titolare: string | null;
}
/** "da holds / controls / represents a", with the share or the kind of link as the arrow reads it. */
export interface DossierChainEdge { da: string; a: string; etichetta: string }
export interface DossierBeneficialOwner {
  cod_anagrafe: string | null; denominazione: string;
  /** The product of the shares along every path (multiplicative reading), or '—'. */
  quota_effettiva: string;
  /** What art. 20 attributes (control chains count in full), or '—' when found by control or role. */
  quota_attribuita: string;
  motivo: string; riferimento: string;
}
export interface DossierStructure {
  nodes: DossierChainNode[]; edges: DossierChainEdge[]; titolari: DossierBeneficialOwner[];
  /** Which tier found the owners (ownership, control, residual: the senior managers). */
  criterio: string;
  note: string[];
}

/** How far up the chain is read: past it the holders are not read (said in the notes). */
const MAX_WALK_LEVELS = 8;
const MAX_SUBJECTS = 60;
const SOGLIA = 25;
const HOLDING_LINKS = ['socio', 'controllante', 'titolare_effettivo'];

/** A registry link as an edge of the engine's structure, or null when it is no ownership, control or representation. */
function edgeKind(l: CustomerLink): TipoArco | null {
  if (HOLDING_LINKS.includes(l.tipo) && l.percentuale !== null) return 'partecipazione';
  if (l.tipo === 'controllante' || (l.tipo === 'titolare_effettivo' && l.tipo_controllo === 'controllo')) return 'influenza_dominante';
  if (l.tipo === 'legale_rappresentante' || (l.tipo === 'titolare_effettivo' && l.tipo_controllo === 'rappresentanza')) return 'rappresentante_legale';
  if (l.tipo === 'amministratore') return 'amministratore';
  return null;
}

const edgeLabel = (l: CustomerLink) => {
  const t = TIPO_LEGAME_LABELS[l.tipo as keyof typeof TIPO_LEGAME_LABELS] ?? l.tipo;
  if (l.percentuale !== null) return `${t} ${quota(l.percentuale)}`;
  const c = l.tipo_controllo ? TIPO_CONTROLLO_LABELS[l.tipo_controllo as keyof typeof TIPO_CONTROLLO_LABELS] : null;
  return c && c !== t ? `${t} (${c.toLowerCase()})` : t;
};

/** The engine's exact fraction of 1 ("9/25") as the share formatter reads it. */
function exact(frazione: string | null | undefined): ExactShare | undefined {
  const m = /^(-?\d+)\/(\d+)$/.exec(frazione ?? '');
  return m ? { num: BigInt(m[1]!), den: BigInt(m[2]!) } : undefined;
}

/** The chain above a company customer and its beneficial owners; `links` are the customer's own, already read. */
export async function collectOwnershipStructure(
  trx: Knex.Transaction, root: { cod_anagrafe: string; denominazione: string }, links: CustomerLink[],
): Promise<DossierStructure> {
  const nodes = new Map<string, DossierChainNode>([[root.cod_anagrafe, { cod_anagrafe: root.cod_anagrafe, denominazione: root.denominazione, persona: false, pep: false, livello: 0, titolare: null }]]);
  const graphNodes: StructureNode[] = [{ id: root.cod_anagrafe, tipo: 'societa', denominazione: root.denominazione, radice: true, cod_anagrafe: root.cod_anagrafe }];
  const graphEdges: StructureEdge[] = [];
  const edges: DossierChainEdge[] = [];
  const note: string[] = [];
  const queue: { cod: string; links: CustomerLink[] | null }[] = [{ cod: root.cod_anagrafe, links }];
  let cut = false;
  // Breadth first: each subject gets the row of its shortest path to the customer.
  for (let next = queue.shift(); next; next = queue.shift()) {
    const level = nodes.get(next.cod)!.livello;
    const own = next.links ?? (await readCustomerRecord(trx, next.cod))?.links ?? [];
    for (const l of own) {
      const kind = l.direzione === 'da' && l.attivo ? edgeKind(l) : null;
      if (!kind) continue;
      const holder = l.altro;
      if (!nodes.has(holder.cod_anagrafe)) {
        if (nodes.size >= MAX_SUBJECTS) { cut = true; continue; }
        const persona = holder.tipo_soggetto === 'persona_fisica';
        nodes.set(holder.cod_anagrafe, { cod_anagrafe: holder.cod_anagrafe, denominazione: holder.denominazione, persona, pep: holder.pep, livello: level + 1, titolare: null });
        graphNodes.push({ id: holder.cod_anagrafe, tipo: persona ? 'persona_fisica' : 'societa', denominazione: holder.denominazione, radice: false, cod_anagrafe: holder.cod_anagrafe });
        if (!persona) {
          if (level + 1 < MAX_WALK_LEVELS) queue.push({ cod: holder.cod_anagrafe, links: null });
          else cut = true;
        }
      }
      // A holder recorded twice (as 'socio' and as 'titolare effettivo' with the same share) holds its share once.
      const pct = l.percentuale === null ? null : Number(l.percentuale);
      const same = graphEdges.find((e) => e.da === holder.cod_anagrafe && e.a === next.cod && e.tipo === kind);
      if (same) { if (kind === 'partecipazione' && pct !== null) same.percentuale = Math.max(same.percentuale ?? 0, pct); }
      else graphEdges.push({ id: l.id, da: holder.cod_anagrafe, a: next.cod, tipo: kind, percentuale: kind === 'partecipazione' ? pct : null, percentuale_voti: null });
      const drawn = edges.find((e) => e.da === holder.cod_anagrafe && e.a === next.cod);
      if (drawn) drawn.etichetta = `${drawn.etichetta} · ${edgeLabel(l)}`;
      else edges.push({ da: holder.cod_anagrafe, a: next.cod, etichetta: edgeLabel(l) });
    }
  }
  if (cut) note.push(`La catena è stata letta fino a ${MAX_WALK_LEVELS} livelli e ${MAX_SUBJECTS} soggetti: oltre, i titolari non sono stati cercati.`);

  let result: UboResult;
  try {
    result = computeUbo({ nodes: graphNodes, edges: graphEdges } satisfies StructureGraph, { soglia: SOGLIA });
  } catch (e) {
    note.push(`Titolari effettivi non calcolabili dai legami registrati: ${(e as Error).message}`);
    return { nodes: [...nodes.values()], edges, titolari: [], criterio: UBO_CRITERION_LABELS.nessuno, note };
  }
  const effective = new Map(result.quote.map((q) => [q.nodo_id, exact(q.moltiplicativo_frazione) ?? q.moltiplicativo]));
  const titolari = result.italiano.titolari.map((o): DossierBeneficialOwner => {
    const eff = effective.get(o.nodo_id);
    const hasShare = o.percentuale !== null || (eff !== undefined && quota(eff, SOGLIA) !== '0%');
    const effLabel = hasShare && eff !== undefined ? quota(eff, SOGLIA) : '—';
    const node = nodes.get(o.nodo_id);
    if (node) node.titolare = `Titolare effettivo${effLabel === '—' ? '' : ` ${effLabel}`}`;
    return {
      cod_anagrafe: o.cod_anagrafe, denominazione: o.denominazione, quota_effettiva: effLabel,
      quota_attribuita: o.percentuale === null ? '—' : quota(exact(o.frazione) ?? o.percentuale, SOGLIA),
      motivo: o.motivi.map((r) => UBO_RULE_LABELS[r.regola]).join('; '),
      riferimento: [...new Set(o.motivi.map((r) => r.riferimento))].join('; '),
    };
  });
  note.push(...result.italiano.note, ...result.avvertenze, ...(result.avvisi ?? []).map((w) => w.messaggio), ...result.differenze.map((d) => d.spiegazione));
  return { nodes: [...nodes.values()], edges, titolari, criterio: UBO_CRITERION_LABELS[result.italiano.criterio], note };
}
