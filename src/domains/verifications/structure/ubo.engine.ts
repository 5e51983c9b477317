import { quota } from '../../../http/share-format';
import { Fraction } from './fraction';
import { controlOf, indexGraph, isPerson, type ControlStep, type IndexedGraph } from './ubo.graph';
import { italianOwnership } from './ubo.italian';
import { UBO_RULE_LABELS } from './ubo.labels';
import { multiplicativeOwnership } from './ubo.multiplicative';
import { controlTier, residualTier, trustTier, type OwnerSet } from './ubo.tiers';
import {
  UboInputError, type StructureGraph, type UboCriterion, type UboDifference, type UboMethod, type UboMethodResult, type UboOptions, type UboOwner,
  type UboResult, type UboShare,
} from './ubo.types';
import { representativesWarning } from './ubo.warnings';

/**
 * The beneficial owners of the KYB's customer (the root node) by the Italian method (art. 20
 * d.lgs. 231/2007, tiers in order: ownership, control, residual) and by the multiplicative
 * method, each owner with its explained paths, and the persons the two treat differently.
 * Pure: same graph, same result (docs/ubo.md).
 */
export function computeUbo(graph: StructureGraph, opts: UboOptions): UboResult {
  if (!(opts.soglia > 0 && opts.soglia < 100)) throw new UboInputError('La soglia deve essere compresa tra 0 e 100 (esclusi)');
  const roots = graph.nodes.filter((n) => n.radice);
  if (roots.length !== 1) throw new UboInputError(roots.length ? 'La struttura ha più di un nodo radice' : 'La struttura non ha il nodo del cliente (radice)');
  const root = roots[0]!;
  if (isPerson(root)) throw new UboInputError('Il cliente di una verifica KYB non è una persona fisica');
  const g = indexGraph(graph, root);
  const controls = new Map(g.nodes.filter(isPerson).map((p) => [p.id, controlOf(g, p.id)]));

  const it = italianOwnership(g, controls, opts.soglia);
  const mu = multiplicativeOwnership(g, controls, opts.soglia);
  const italiano = method(g, controls, 'italiano', it.owners, it.note);
  const moltiplicativo = method(g, controls, 'moltiplicativo', mu.owners, mu.note);
  const quote: UboShare[] = g.nodes.filter(isPerson).map((p) => {
    const x = mu.shares.get(p.id) ?? Fraction.ZERO;
    return { nodo_id: p.id, denominazione: p.denominazione, italiano: it.quote.get(p.id) ?? 0, moltiplicativo: x.toPercent(), moltiplicativo_frazione: x.toString() };
  }).filter((q) => q.italiano > 0 || q.moltiplicativo > 0);
  // The methods that fell back to comma 5 (a trust's owners come from art. 22, comma 5 instead).
  const residual = [italiano, moltiplicativo].filter((m) => g.root.tipo !== 'trust' && (m.criterio === 'residuale' || m.criterio === 'nessuno'));
  const avviso = representativesWarning(g, residual.map((m) => m.metodo), residual.some((m) => m.titolari.length > 0));
  return {
    soglia: opts.soglia,
    radice: { id: root.id, denominazione: root.denominazione, tipo: root.tipo },
    italiano, moltiplicativo,
    differenze: differences(italiano, moltiplicativo, quote, opts.soglia),
    quote,
    avvertenze: warnings(g),
    avvisi: avviso ? [avviso] : [],
  };
}

/** One method's tiers in the order of the law; the ownership tier is the method's own. */
function method(g: IndexedGraph, controls: Map<string, Map<string, ControlStep>>, metodo: UboMethod, ownership: OwnerSet, ownershipNotes: string[]): UboMethodResult {
  // An empty residual tier is not a note but a warning naming who lacks representatives (ubo.warnings.ts).
  const done = (criterio: UboCriterion, owners: OwnerSet, note: string[]): UboMethodResult => ({
    metodo, criterio: owners.size ? criterio : 'nessuno', titolari: owners.list(), note,
  });
  if (g.root.tipo === 'trust') {
    const owners = trustTier(g, controls);
    return done('trust', owners, owners.size ? [] : ['Nessun titolare effettivo individuabile: registrare disponenti, trustee, guardiani, beneficiari o chi altro controlla il trust (art. 22, comma 5).']);
  }
  if (g.root.tipo === 'ente_pubblico') {
    return done('residuale', residualTier(g), ['Il cliente è un ente pubblico: il titolare effettivo è chi ha poteri di rappresentanza legale, amministrazione o direzione dell\'ente, secondo i suoi assetti organizzativi o statutari (art. 20, comma 5; FAQ MEF–Banca d\'Italia–UIF del 20 novembre 2023).']);
  }
  const note = g.root.tipo === 'societa_quotata'
    ? ['Il cliente è una società quotata: gli assetti proprietari si ricavano dalle comunicazioni delle partecipazioni rilevanti (art. 120 TUF); la quotazione su un mercato regolamentato con obblighi di trasparenza è un fattore di basso rischio (art. 23, comma 2, lett. a) d.lgs. 231/2007) ma non esclude l\'individuazione del titolare effettivo.']
    : [];
  if (ownership.size) return done('proprieta', ownership, [...note, ...ownershipNotes]);
  const control = controlTier(g, controls);
  if (control.size) return done('controllo', control, [...note, ...ownershipNotes, 'Nessuna persona fisica supera la soglia di proprietà: si applica il criterio del controllo (art. 20, comma 3).']);
  return done('residuale', residualTier(g), [...note, ...ownershipNotes, 'Né la proprietà né il controllo individuano un titolare effettivo: si applica il criterio residuale (art. 20, comma 5).']);
}

const rulesOf = (o: UboOwner | undefined) => [...new Set(o?.motivi.map((m) => m.regola) ?? [])];
const rulesText = (o: UboOwner) => rulesOf(o).map((r) => UBO_RULE_LABELS[r].toLowerCase()).join(', ');
/** An owner's share, exact: the texts are written from it, so a share a hair off the threshold never reads as it. */
const exact = (o: UboOwner) => Fraction.parse(o.frazione) ?? (o.percentuale === null ? null : Fraction.fromPercent(o.percentuale));

/** The persons owner under one method and not the other, or owner under both with different figures. */
function differences(it: UboMethodResult, mu: UboMethodResult, quote: UboShare[], soglia: number): UboDifference[] {
  const itBy = new Map(it.titolari.map((o) => [o.nodo_id, o]));
  const muBy = new Map(mu.titolari.map((o) => [o.nodo_id, o]));
  const shareBy = new Map(quote.map((q) => [q.nodo_id, q]));
  const out: UboDifference[] = [];
  for (const id of new Set([...itBy.keys(), ...muBy.keys()])) {
    const a = itBy.get(id);
    const b = muBy.get(id);
    const s = shareBy.get(id);
    const itShare = s?.italiano ?? 0;
    const muShare = s?.moltiplicativo ?? 0;
    const itExact = Fraction.fromPercent(itShare);
    const muExact = Fraction.parse(s?.moltiplicativo_frazione) ?? Fraction.ZERO;
    const sameFigure = a && b && (exact(a) && exact(b) ? exact(a)!.cmp(exact(b)!) === 0 : a.percentuale === b.percentuale);
    if (sameFigure && rulesOf(a).join() === rulesOf(b).join()) continue;
    const name = (a ?? b)!.denominazione;
    let spiegazione: string;
    if (a && !b) {
      spiegazione = `Titolare effettivo solo per il metodo italiano (${rulesText(a)}${a.percentuale !== null ? `, ${quota(exact(a), soglia)}` : ''}): `
        + `con il metodo moltiplicativo la sua quota effettiva è ${quota(muExact, soglia)}, non superiore alla soglia del ${quota(soglia)}`
        + (itExact.cmp(muExact) > 0 ? ', perché il prodotto delle percentuali riduce le quote delle società che controlla, che il metodo italiano computa per intero.' : '.');
    } else if (b && !a) {
      spiegazione = `Titolare effettivo solo per il metodo moltiplicativo (${rulesText(b)}${b.percentuale !== null ? `, quota effettiva ${quota(exact(b), soglia)}` : ''}): `
        + `con il metodo italiano la quota attribuita è ${quota(itExact, soglia)}`
        + (muExact.cmp(itExact) > 0 ? ', perché non controlla (art. 2359 c.c.) le società attraverso cui partecipa e le loro quote non gli sono attribuite.' : '.');
    } else {
      spiegazione = `Titolare effettivo per entrambi i metodi con figure diverse: metodo italiano ${rulesText(a!)} ${quota(exact(a!), soglia)}, `
        + `metodo moltiplicativo ${rulesText(b!)} ${quota(exact(b!), soglia)}.`;
    }
    out.push({
      nodo_id: id, denominazione: name,
      italiano: { titolare: !!a, percentuale: a?.percentuale ?? (itShare || null), regole: rulesOf(a) },
      moltiplicativo: { titolare: !!b, percentuale: b?.percentuale ?? (muShare || null), frazione: s?.moltiplicativo_frazione ?? null, regole: rulesOf(b) },
      spiegazione,
    });
  }
  return out.sort((x, y) => x.denominazione.localeCompare(y.denominazione, 'it'));
}

/** What in the structure looks wrong or incomplete: holdings over 100%, nodes not connected to the customer. */
function warnings(g: IndexedGraph): string[] {
  const out: string[] = [];
  for (const n of g.nodes) {
    const total = g.into(n.id).filter((e) => e.tipo === 'partecipazione').reduce((s, e) => s.add(Fraction.fromPercent(e.percentuale ?? 0)), Fraction.ZERO);
    if (total.cmp(Fraction.fromPercent(100)) > 0) out.push(`Le partecipazioni in ${n.denominazione} superano il 100% (${quota(total, 100)}).`);
  }
  const linked = new Set([g.root.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of g.edges) {
      if (linked.has(e.a) && !linked.has(e.da)) { linked.add(e.da); grew = true; }
    }
  }
  const loose = g.nodes.filter((n) => !linked.has(n.id));
  if (loose.length) out.push(`Nodi senza collegamento con il cliente: ${loose.map((n) => n.denominazione).join(', ')}.`);
  return out;
}
