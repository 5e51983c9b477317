import type { Knex } from 'knex';
import { Customer } from './customer.model';
import type { CustomerVersion } from './customer-version.model';
import type { Legame } from './legame.model';
import { todayInRome } from './records.dates';

/**
 * The customer's pages (detail and file) read one graph of the records models: the subject, the
 * relationships it has a role on (with the other parties), its links both ways (the other subject
 * named), its documents and its versions. Inside withTenant: row-level security shows the
 * tenant's rows only, so another tenant's code finds nothing.
 */

export interface CustomerRelationship {
  cod_rapporto: string;
  tipo: string;
  stato: string;
  data_apertura: string;
  data_chiusura: string | null;
  scopo: string | null;
  ruolo: string;
  dal: string | null;
  al: string | null;
  /** The other subjects of the relationship and their roles (co-holders, delegates...). */
  altri: { cod_anagrafe: string; denominazione: string; ruolo: string }[];
}

export interface CustomerLink {
  id: string;
  tipo: string;
  /** 'da': from this subject to the other (a company to its owner); 'a': the other way. */
  direzione: 'da' | 'a';
  altro: { cod_anagrafe: string; denominazione: string; tipo_soggetto: string; pep: boolean };
  percentuale: string | null;
  tipo_controllo: string | null;
  dal: string | null;
  al: string | null;
  fonte: string | null;
  note: string | null;
  /** Still in force (no end date, or one not past). */
  attivo: boolean;
}

export interface CustomerDocument {
  id: string;
  tipo: string;
  numero: string | null;
  autorita_rilascio: string | null;
  paese_rilascio: string | null;
  data_rilascio: string | null;
  data_scadenza: string | null;
  stato: string;
  /** Days to expiry (negative once expired); null without an expiry date. */
  giorniAllaScadenza: number | null;
}

export interface CustomerRecord {
  customer: Customer;
  relationships: CustomerRelationship[];
  links: CustomerLink[];
  documents: CustomerDocument[];
  versions: CustomerVersion[];
}

/**
 * The relations read, one after the other: Objection fetches the relations of one expression in
 * parallel, and a tenant transaction is one connection (node-postgres refuses overlapping queries).
 */
const RELATIONS = ['rapporti.soggetti', 'legami_uscenti.a', 'legami_entranti.da', 'documenti', 'versioni'] as const;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The subject and everything its pages show, or undefined when the tenant has no such code. */
export async function readCustomerRecord(trx: Knex.Transaction, codAnagrafe: string): Promise<CustomerRecord | undefined> {
  const c = await Customer.of(trx).where({ cod_anagrafe: codAnagrafe }).first();
  if (!c) return undefined;
  for (const relation of RELATIONS) {
    await c.$fetchGraph(relation, { transaction: trx });
  }
  const today = todayInRome();
  const rel = c.rapporti ?? [];
  const relationships: CustomerRelationship[] = rel.map((r) => {
    const role = r as unknown as { ruolo: string; ruolo_dal: string | null; ruolo_al: string | null };
    return {
      cod_rapporto: r.cod_rapporto, tipo: r.tipo, stato: r.stato, data_apertura: r.data_apertura, data_chiusura: r.data_chiusura, scopo: r.scopo,
      ruolo: role.ruolo, dal: role.ruolo_dal, al: role.ruolo_al,
      altri: (r.soggetti ?? []).filter((s) => s.cod_anagrafe !== codAnagrafe)
        .map((s) => ({ cod_anagrafe: s.cod_anagrafe, denominazione: s.denominazione, ruolo: s.ruolo })),
    };
  }).sort((a, b) => b.data_apertura.localeCompare(a.data_apertura) || b.cod_rapporto.localeCompare(a.cod_rapporto));

  const link = (l: Legame, direzione: 'da' | 'a'): CustomerLink | undefined => {
    const other = direzione === 'da' ? l.a : l.da;
    if (!other) return undefined;
    return {
      id: l.id, tipo: l.tipo, direzione, percentuale: l.percentuale, tipo_controllo: l.tipo_controllo, dal: l.dal, al: l.al, fonte: l.fonte, note: l.note,
      altro: { cod_anagrafe: other.cod_anagrafe, denominazione: other.denominazione, tipo_soggetto: other.tipo_soggetto, pep: other.pep === true },
      attivo: l.al === null || l.al >= today,
    };
  };
  const links = [...(c.legami_uscenti ?? []).map((l) => link(l, 'da')), ...(c.legami_entranti ?? []).map((l) => link(l, 'a'))]
    .filter((l): l is CustomerLink => !!l)
    .sort((a, b) => Number(b.attivo) - Number(a.attivo) || a.tipo.localeCompare(b.tipo) || a.altro.denominazione.localeCompare(b.altro.denominazione, 'it'));

  // Expiring first; documents without an expiry last.
  const documents = (c.documenti ?? []).map((d) => ({
    id: d.id, tipo: d.tipo, numero: d.numero, autorita_rilascio: d.autorita_rilascio, paese_rilascio: d.paese_rilascio,
    data_rilascio: d.data_rilascio, data_scadenza: d.data_scadenza, stato: d.stato,
    giorniAllaScadenza: d.data_scadenza ? daysBetween(today, d.data_scadenza) : null,
  })).sort((a, b) => (a.data_scadenza ?? '9999').localeCompare(b.data_scadenza ?? '9999'));

  return { customer: c, relationships, links, documents, versions: c.versioni ?? [] };
}
