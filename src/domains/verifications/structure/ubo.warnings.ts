import { isPerson, type IndexedGraph } from './ubo.graph';
import { UBO_RULE_LABELS, UBO_RULE_REFERENCES } from './ubo.labels';
import { RESIDUAL } from './ubo.tiers';
import type { ResidualRole, StructureNode, UboMethod, UboWarning, UboWarningSubject } from './ubo.types';

/**
 * Art. 20, comma 5, d.lgs. 231/2007: when no natural person owns or controls the customer, its
 * beneficial owners are the natural persons with powers of legal representation, administration
 * or direction of the customer. The residual tier (`residualTier`) reads them in two places, and
 * those are the entities whose representatives a result needs:
 * - the customer: the legal representatives, administrators and directors recorded on it;
 * - a company holding one of those roles in the customer (a corporate administrator): the natural
 *   persons who are its legal representatives, who exercise the office.
 * The shareholders up the chain are not asked for: comma 5 speaks of the customer's powers, and
 * a holding company's directors are not the customer's (unless recorded as such on it).
 */
export function residualGaps(g: IndexedGraph): UboWarningSubject[] {
  const roles = g.into(g.root.id).filter((e) => RESIDUAL[e.tipo]);
  if (!roles.length) {
    return [subject(g.root, true, [], `${named(g.root)}: nessun legale rappresentante, amministratore o direttore registrato nella struttura.`)];
  }
  const out: UboWarningSubject[] = [];
  for (const holderId of new Set(roles.map((e) => e.da))) {
    const holder = g.node(holderId);
    if (isPerson(holder)) continue;
    if (g.into(holder.id).some((r) => r.tipo === 'rappresentante_legale' && isPerson(g.node(r.da)))) continue;
    const held = [...new Set(roles.filter((e) => e.da === holderId).map((e) => RESIDUAL[e.tipo]!))];
    const what = held.map((r) => UBO_RULE_LABELS[r].toLowerCase()).join(' e ');
    out.push(subject(holder, false, held, `${named(holder)}, ${what} di ${g.root.denominazione}: nessun legale rappresentante persona fisica registrato nella struttura.`));
  }
  return out;
}

/**
 * The warning of a result whose methods (`metodi`) fell back to the residual criterion, when an
 * entity it needs lacks its representatives; `trovati`: whether the criterion still found someone.
 */
export function representativesWarning(g: IndexedGraph, metodi: UboMethod[], trovati: boolean): UboWarning | undefined {
  const soggetti = residualGaps(g);
  if (!metodi.length || !soggetti.length) return undefined;
  const which = metodi.length === 1 ? ` con il metodo ${metodi[0] === 'italiano' ? 'italiano' : 'moltiplicativo'}` : '';
  const why = g.root.tipo === 'ente_pubblico'
    ? `${g.root.denominazione} è un ente pubblico: i titolari effettivi sono le persone fisiche con poteri di rappresentanza legale, amministrazione o direzione (art. 20, comma 5, d.lgs. 231/2007).`
    : `Nessuna persona fisica è titolare effettivo per proprietà o per controllo${which}: i titolari effettivi sono allora le persone fisiche con poteri di rappresentanza legale, amministrazione o direzione del cliente (art. 20, comma 5, d.lgs. 231/2007).`;
  const gap = trovati
    ? ' Nella struttura ne manca una parte: delle società indicate non è registrato il legale rappresentante. Registralo e ricalcola.'
    : ' Nella struttura non ce n\'è nessuna, quindi il calcolo non individua alcun titolare effettivo. Registra i legali rappresentanti o gli amministratori mancanti e ricalcola.';
  return { codice: 'rappresentanti_mancanti', metodi, riferimento: UBO_RULE_REFERENCES.rappresentante_legale, messaggio: `${why}${gap}`, soggetti };
}

function subject(n: StructureNode, cliente: boolean, ruoli: ResidualRole[], messaggio: string): UboWarningSubject {
  return { nodo_id: n.id, denominazione: n.denominazione, tipo: n.tipo, codice_fiscale: n.codice_fiscale ?? null, cod_anagrafe: n.cod_anagrafe ?? null, cliente, ruoli, messaggio };
}

/** "Cliente S.p.A. (anagrafe ANA-000123, codice fiscale 01234567890)": the name and the codes the officer looks it up by. */
function named(n: StructureNode): string {
  const codes = [n.cod_anagrafe ? `anagrafe ${n.cod_anagrafe}` : '', n.codice_fiscale ? `codice fiscale ${n.codice_fiscale}` : ''].filter(Boolean);
  return codes.length ? `${n.denominazione} (${codes.join(', ')})` : n.denominazione;
}
