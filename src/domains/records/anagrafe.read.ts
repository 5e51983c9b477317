import type { Knex } from 'knex';

/**
 * The reads behind the customer's pages (detail and file): the subject's relationships with its
 * roles, its links both ways, its documents and its versions. Always inside withTenant (row-level
 * security); the tenant predicate is explicit so each read uses the tenant-first indexes.
 */

type Row = Record<string, unknown>;

export interface CustomerRelationship {
  cod_rapporto: string;
  tipo: string;
  stato: string;
  data_apertura: Date | string;
  data_chiusura: Date | string | null;
  scopo: string | null;
  ruolo: string;
  dal: Date | string | null;
  al: Date | string | null;
  /** The other subjects of the relationship and their roles (co-holders, delegates...). */
  altri: { cod_anagrafe: string; denominazione: string; ruolo: string }[];
}

export interface CustomerLink {
  id: string;
  tipo: string;
  /** 'da': from this subject to the other (a company to its owner); 'a': the other way. */
  direzione: 'da' | 'a';
  altro: { cod_anagrafe: string; denominazione: string; tipo_soggetto: string; pep: boolean };
  percentuale: string | number | null;
  tipo_controllo: string | null;
  dal: Date | string | null;
  al: Date | string | null;
  fonte: string | null;
  note: string | null;
  /** Still in force (no end date, or one in the future). */
  attivo: boolean;
}

export interface CustomerDocument {
  id: string;
  tipo: string;
  numero: string | null;
  autorita_rilascio: string | null;
  paese_rilascio: string | null;
  data_rilascio: Date | string | null;
  data_scadenza: Date | string | null;
  stato: string;
  /** Days to expiry (negative once expired); null without an expiry date. */
  giorniAllaScadenza: number | null;
}

export interface CustomerVersion {
  versione: number;
  operazione: string;
  changed_at: Date;
  changed_by: string | null;
  campi: Record<string, { old: unknown; new: unknown }>;
  snapshot: Row;
}

const inForce = (al: unknown, today: string) => al === null || al === undefined || isoDay(al) >= today;
const isoDay = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
const todayIso = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The relationships the subject takes part in, with its role in each and the other parties. */
export async function customerRelationships(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<CustomerRelationship[]> {
  const rows = await trx('rapporti_soggetti as rs')
    .join('rapporti as r', function () { this.on('r.cod_azienda', 'rs.cod_azienda').andOn('r.cod_rapporto', 'rs.cod_rapporto'); })
    .where({ 'rs.cod_azienda': codAzienda, 'rs.cod_anagrafe': codAnagrafe })
    .orderBy([{ column: 'r.data_apertura', order: 'desc' }, { column: 'r.cod_rapporto', order: 'desc' }])
    .select('r.cod_rapporto', 'r.tipo', 'r.stato', 'r.data_apertura', 'r.data_chiusura', 'r.scopo', 'rs.ruolo', 'rs.dal', 'rs.al') as Omit<CustomerRelationship, 'altri'>[];
  if (!rows.length) return [];
  const others = await trx('rapporti_soggetti as rs')
    .join('anagrafe as a', function () { this.on('a.cod_azienda', 'rs.cod_azienda').andOn('a.cod_anagrafe', 'rs.cod_anagrafe'); })
    .where('rs.cod_azienda', codAzienda).whereIn('rs.cod_rapporto', rows.map((r) => r.cod_rapporto)).whereNot('rs.cod_anagrafe', codAnagrafe)
    .orderBy(['rs.cod_rapporto', 'rs.ruolo', 'a.denominazione'])
    .select('rs.cod_rapporto', 'rs.cod_anagrafe', 'a.denominazione', 'rs.ruolo') as { cod_rapporto: string; cod_anagrafe: string; denominazione: string; ruolo: string }[];
  return rows.map((r) => ({ ...r, altri: others.filter((o) => o.cod_rapporto === r.cod_rapporto).map(({ cod_rapporto: _c, ...o }) => o) }));
}

/** The subject's links (legami) both ways, the other subject named; beneficial owners are links of tipo 'titolare_effettivo'. */
export async function customerLinks(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<CustomerLink[]> {
  const side = (mine: 'cod_anagrafe_da' | 'cod_anagrafe_a', theirs: 'cod_anagrafe_da' | 'cod_anagrafe_a') => trx('legami as l')
    .join('anagrafe as o', function () { this.on('o.cod_azienda', 'l.cod_azienda').andOn('o.cod_anagrafe', `l.${theirs}`); })
    .where({ 'l.cod_azienda': codAzienda, [`l.${mine}`]: codAnagrafe })
    .select('l.id', 'l.tipo', 'l.percentuale', 'l.tipo_controllo', 'l.dal', 'l.al', 'l.fonte', 'l.note', 'o.cod_anagrafe', 'o.denominazione', 'o.tipo_soggetto', 'o.pep') as Promise<Row[]>;
  // One query after the other: a transaction is one connection.
  const from = await side('cod_anagrafe_da', 'cod_anagrafe_a');
  const to = await side('cod_anagrafe_a', 'cod_anagrafe_da');
  const today = todayIso();
  const shape = (r: Row, direzione: 'da' | 'a'): CustomerLink => ({
    id: r.id as string, tipo: r.tipo as string, direzione,
    altro: { cod_anagrafe: r.cod_anagrafe as string, denominazione: r.denominazione as string, tipo_soggetto: r.tipo_soggetto as string, pep: r.pep === true },
    percentuale: r.percentuale as string | null, tipo_controllo: (r.tipo_controllo as string | null) ?? null, dal: (r.dal as string | null) ?? null,
    al: (r.al as string | null) ?? null, fonte: (r.fonte as string | null) ?? null, note: (r.note as string | null) ?? null, attivo: inForce(r.al, today),
  });
  return [...from.map((r) => shape(r, 'da')), ...to.map((r) => shape(r, 'a'))]
    .sort((a, b) => Number(b.attivo) - Number(a.attivo) || a.tipo.localeCompare(b.tipo) || a.altro.denominazione.localeCompare(b.altro.denominazione, 'it'));
}

/** The subject's documents, the ones expiring first on top (no expiry last). */
export async function customerDocuments(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<CustomerDocument[]> {
  const rows = await trx('documenti').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderByRaw('data_scadenza asc nulls last, created_at desc')
    .select('id', 'tipo', 'numero', 'autorita_rilascio', 'paese_rilascio', 'data_rilascio', 'data_scadenza', 'stato') as Omit<CustomerDocument, 'giorniAllaScadenza'>[];
  const today = todayIso();
  return rows.map((d) => ({ ...d, giorniAllaScadenza: d.data_scadenza ? daysBetween(today, isoDay(d.data_scadenza)) : null }));
}

/** The versions of the record, newest first. */
export async function customerVersions(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string, limit = 200): Promise<CustomerVersion[]> {
  return await trx('anagrafe_versioni').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderBy('versione', 'desc').limit(limit)
    .select('versione', 'operazione', 'changed_at', 'changed_by', 'campi', 'snapshot') as CustomerVersion[];
}
