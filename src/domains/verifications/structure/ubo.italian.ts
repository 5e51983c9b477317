import { quota } from '../../../http/share-format';
import { Fraction } from './fraction';
import { chainTo, isPerson, type ControlStep, type IndexedGraph } from './ubo.graph';
import { OwnerSet, path, reason } from './ubo.tiers';
import type { UboPath } from './ubo.types';

/**
 * Art. 20, comma 2, d.lgs. 231/2007 read as the MEF–Banca d'Italia–UIF FAQ of 20 November 2023
 * read it: the threshold applies only to the customer's capital; above the first level what
 * counts is control (art. 2359, comma 1 c.c.). A person's ownership of the customer is what it
 * holds directly plus, in full, what the entities it controls hold: the control chain, not the
 * product of the percentages. Controlled entities' stakes are summed ("per il tramite di società
 * controllate, società fiduciarie o per interposta persona").
 */
export function italianOwnership(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>, soglia: number) {
  const owners = new OwnerSet(g);
  const quote = new Map<string, number>();
  const threshold = Fraction.fromPercent(soglia);
  const holdings = g.into(g.root.id).filter((e) => e.tipo === 'partecipazione' && e.da !== g.root.id);
  for (const p of g.nodes.filter(isPerson)) {
    const ctrl = controls.get(p.id)!;
    let direct = Fraction.ZERO;
    let indirect = Fraction.ZERO;
    const percorsi: UboPath[] = [];
    for (const e of holdings) {
      const share = e.percentuale ?? 0;
      if (e.da === p.id) {
        direct = direct.add(Fraction.fromPercent(share));
        percorsi.push(path(g, p.id, [], e, `${p.denominazione} detiene direttamente il ${quota(share, soglia)} di ${g.root.denominazione}`, share));
      } else if (ctrl.has(e.da)) {
        indirect = indirect.add(Fraction.fromPercent(share));
        percorsi.push(path(g, p.id, chainTo(ctrl, p.id, e.da), e,
          `${g.node(e.da).denominazione} detiene il ${quota(share, soglia)} di ${g.root.denominazione}, computato per intero`, share));
      }
    }
    const total = direct.add(indirect);
    quote.set(p.id, total.toPercent());
    if (total.cmp(threshold) <= 0) continue;
    const regola = direct.cmp(threshold) > 0 || indirect.isZero() ? 'proprieta_diretta' : 'proprieta_indiretta';
    const spiegazione = indirect.isZero()
      ? `Detiene direttamente il ${quota(total, soglia)} del capitale di ${g.root.denominazione}, oltre la soglia del ${quota(soglia)}.`
      : `Detiene il ${quota(total, soglia)} del capitale di ${g.root.denominazione}: ${quota(direct, soglia)} direttamente e ${quota(indirect, soglia)} tramite entità che controlla `
        + `(le loro quote si computano per intero), oltre la soglia del ${quota(soglia)}.`;
    owners.add(p.id, reason(regola, spiegazione, percorsi, total.toPercent()), total);
  }
  return { owners, quote, note: uncontrolledHolders(g, controls, soglia) };
}

/** The entities holding more than the threshold of the customer that no person controls: their stakes reach nobody. */
function uncontrolledHolders(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>, soglia: number): string[] {
  const notes: string[] = [];
  for (const e of g.into(g.root.id)) {
    const h = g.node(e.da);
    if (e.tipo !== 'partecipazione' || isPerson(h) || (e.percentuale ?? 0) <= soglia) continue;
    if ([...controls.values()].some((c) => c.has(h.id))) continue;
    const share = `${h.denominazione} detiene il ${quota(e.percentuale, soglia)} di ${g.root.denominazione}`;
    if (h.tipo === 'ente_pubblico') notes.push(`${share}: è un ente pubblico, la quota non è riconducibile a persone fisiche.`);
    else if (h.tipo === 'societa_quotata') notes.push(`${share}: è una società quotata che nessuna persona fisica registrata controlla (azionariato diffuso); la quota non è attribuita.`);
    else notes.push(`${share} ma nessuna persona fisica la controlla (art. 2359, comma 1 c.c.): con il metodo italiano la quota non è attribuita ad alcuno.`);
  }
  return notes;
}
