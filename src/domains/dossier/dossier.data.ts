import type { Knex } from 'knex';
import type { DossierSection } from '../../../workflows/dossier/dossier.sections';
import { casesForCustomer } from '../cases';
import { cddHistoryForCustomer, CDD_LIVELLO_LABELS, CDD_MOTIVO_LABELS, CDD_STATO_LABELS } from '../cdd';
import { eddCasesForCustomer, EDD_MOTIVO_LABELS, EDD_STATO_LABELS } from '../edd';
import { movementsMonthlyVolumes } from '../movements';
import {
  CAMPO_ANAGRAFE_LABELS, CLASSE_RISCHIO_LABELS, formatFieldValue, RAPPORTO_TIPO_LABELS, readCustomerRecord, RUOLO_RAPPORTO_LABELS,
  STATO_DOCUMENTO_LABELS, STATO_RAPPORTO_LABELS, TIPO_CONTROLLO_LABELS, TIPO_DOCUMENTO_LABELS, TIPO_LEGAME_LABELS,
} from '../records';
import { explainAssessment, listAssessments, VALUTAZIONE_STATO_LABELS, type AssessmentListQuery } from '../risk';
import { listaLabel, screeningForCustomer } from '../screening';
import { collectOwnershipStructure, type DossierStructure } from './dossier.structure';

/**
 * What a customer dossier prints, read in one tenant transaction (row-level security applies to
 * every read) from each area's public surface, with the words a person reads already applied:
 * the PDF (dossier.pdf.ts) only lays it out. Dates stay ISO strings (the PDF formats them).
 */

export interface DossierOwner {
  cod_anagrafe: string; denominazione: string; tipo: string; percentuale: number | null; controllo: string | null;
  /** 'sopra': the other subject owns or controls this one (drawn above it); 'sotto': this one holds a stake in it. */
  posizione: 'sopra' | 'sotto'; persona: boolean; pep: boolean; attivo: boolean;
}

export interface DossierData {
  subject: { cod_anagrafe: string; denominazione: string; tipo_soggetto: string; fields: { label: string; value: string }[] };
  relationships: { cod_rapporto: string; tipo: string; stato: string; ruolo: string; apertura: string; chiusura: string | null; altri: string }[];
  owners: DossierOwner[];
  /** The whole chain above a company and its beneficial owners (null for a natural person, or when not chosen). */
  structure: DossierStructure | null;
  documents: { tipo: string; numero: string; rilascio: string | null; scadenza: string | null; stato: string }[];
  cdd: { codice: string; livello: string; motivo: string; stato: string; aperta: string; chiusa: string | null }[];
  edd: { codice: string; motivi: string; stato: string; aperta: string; chiusa: string | null }[];
  risk: {
    classe: string | null; punteggio: number | null;
    valutazione: {
      codice: string; stato: string; calcolata_il: string | null; punteggio: number | null; classe_calcolata: string | null; classe_effettiva: string | null;
      contributi: { nome: string; punti: number; frase: string }[]; pavimento: string | null; override: string | null;
    } | null;
  };
  screening: { ultimo: string | null; hits: { lista: string; nome: string; score: number; stato: string; data: string }[] } | null;
  movements: { mese: string; entrate: number; uscite: number; contanti: number; numero: number }[];
  cases: { titolo: string; tipo: string; stato: string; priorita: string; aperto: string; chiuso: string | null }[];
}

const IDENTITY_FIELDS = [
  'tipo_soggetto', 'nome', 'cognome', 'codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'data_nascita', 'luogo_nascita', 'nazionalita',
  'paese_residenza', 'paese_fiscale', 'indirizzo', 'email', 'telefono', 'attivita', 'professione', 'ateco', 'pep', 'data_onboarding',
  'volume_mensile_atteso_eur', 'uso_contanti_atteso', 'stato', 'codice_esterno',
] as const;
const MOVEMENT_MONTHS = 12;
const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const label = (dict: Record<string, string>, v: string | null | undefined) => (v ? dict[v] ?? v : '—');
/** Assessments whose class counts (a draft or one waiting for a second opinion does not explain the class). */
const DECIDED = ['released', 'completed', 'overridden', 'archived'];

/** The dossier's data for a customer, or undefined when the tenant has no such customer. */
export async function collectDossierData(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string, sections: readonly DossierSection[]): Promise<DossierData | undefined> {
  const record = await readCustomerRecord(trx, codAnagrafe);
  if (!record) return undefined;
  const c = record.customer;
  const has = (s: DossierSection) => sections.includes(s);
  const row = c as unknown as Record<string, unknown>;
  const data: DossierData = {
    subject: {
      cod_anagrafe: c.cod_anagrafe, denominazione: c.denominazione, tipo_soggetto: c.tipo_soggetto,
      fields: IDENTITY_FIELDS.filter((f) => row[f] !== null && row[f] !== undefined && row[f] !== '')
        .map((f) => ({ label: CAMPO_ANAGRAFE_LABELS[f] ?? f, value: formatFieldValue(f, row[f]) })),
    },
    relationships: [], owners: [], structure: null, documents: [], cdd: [], edd: [],
    risk: { classe: c.classe_rischio ? label(CLASSE_RISCHIO_LABELS, c.classe_rischio) : null, punteggio: c.punteggio_rischio, valutazione: null },
    screening: null, movements: [], cases: [],
  };
  // One read after the other: a transaction is one connection.
  if (has('rapporti')) {
    data.relationships = record.relationships.map((r) => ({
      cod_rapporto: r.cod_rapporto, tipo: label(RAPPORTO_TIPO_LABELS, r.tipo), stato: label(STATO_RAPPORTO_LABELS, r.stato), ruolo: label(RUOLO_RAPPORTO_LABELS, r.ruolo),
      apertura: r.data_apertura, chiusura: r.data_chiusura, altri: r.altri.map((a) => `${a.denominazione} (${label(RUOLO_RAPPORTO_LABELS, a.ruolo)})`).join(', '),
    }));
  }
  if (has('titolari')) {
    data.owners = record.links.map((l) => ({
      cod_anagrafe: l.altro.cod_anagrafe, denominazione: l.altro.denominazione, tipo: label(TIPO_LEGAME_LABELS, l.tipo),
      percentuale: l.percentuale === null ? null : Number(l.percentuale), controllo: l.tipo_controllo ? label(TIPO_CONTROLLO_LABELS, l.tipo_controllo) : null,
      // A link from this subject to another names the other as its owner, representative...; a link into it, the other way.
      posizione: l.direzione === 'da' ? 'sopra' : 'sotto', persona: l.altro.tipo_soggetto === 'persona_fisica', pep: l.altro.pep, attivo: l.attivo,
    }));
    if (c.tipo_soggetto !== 'persona_fisica') data.structure = await collectOwnershipStructure(trx, c, record.links);
  }
  if (has('documenti')) {
    data.documents = record.documents.map((d) => ({
      tipo: label(TIPO_DOCUMENTO_LABELS, d.tipo), numero: d.numero ?? '—', rilascio: d.data_rilascio, scadenza: d.data_scadenza, stato: label(STATO_DOCUMENTO_LABELS, d.stato),
    }));
  }
  if (has('cdd')) {
    data.cdd = (await cddHistoryForCustomer(trx, codAnagrafe)).map((t) => ({
      codice: t.cod_pratica, livello: label(CDD_LIVELLO_LABELS, t.livello), motivo: label(CDD_MOTIVO_LABELS, t.motivo), stato: label(CDD_STATO_LABELS, t.stato),
      aperta: iso(t.created_at)!, chiusa: iso(t.completed_at ?? t.abstained_at),
    }));
  }
  if (has('edd')) {
    data.edd = (await eddCasesForCustomer(trx, codAnagrafe)).map((e) => ({
      codice: e.cod_edd, motivi: e.motivi.map((m) => EDD_MOTIVO_LABELS[m] ?? m).join(', ') || '—', stato: label(EDD_STATO_LABELS, e.stato),
      aperta: iso(e.created_at)!, chiusa: iso(e.closed_at),
    }));
  }
  if (has('rischio')) {
    const page = await listAssessments(trx, codAzienda, { cod_anagrafe: codAnagrafe, sort: '-created_at', limit: 10, offset: 0 } as AssessmentListQuery, '');
    const a = page.items.find((x) => DECIDED.includes(x.stato));
    if (a) {
      const e = explainAssessment(a);
      data.risk.valutazione = {
        codice: e.cod_valutazione, stato: label(VALUTAZIONE_STATO_LABELS, e.stato), calcolata_il: e.calcolata_il, punteggio: e.punteggio,
        classe_calcolata: e.classe_calcolata ? label(CLASSE_RISCHIO_LABELS, e.classe_calcolata) : null,
        classe_effettiva: e.classe_effettiva ? label(CLASSE_RISCHIO_LABELS, e.classe_effettiva) : null,
        contributi: e.contributi.map((k) => ({ nome: k.nome, punti: k.punti, frase: k.frase })),
        pavimento: e.pavimento ? `Classe minima ${e.pavimento.classe_label ?? e.pavimento.classe}` : null,
        override: e.override ? `Classe modificata a ${label(CLASSE_RISCHIO_LABELS, e.override.classe)}: ${e.override.motivo ?? ''}` : null,
      };
    }
  }
  if (has('screening')) {
    const s = await screeningForCustomer(trx, codAzienda, codAnagrafe);
    data.screening = s ? {
      ultimo: iso(s.lastScreenedAt),
      hits: s.hits.map((h) => ({ lista: listaLabel(h.lista), nome: h.nomeTrovato ?? '—', score: h.score, stato: h.statoLabel, data: iso(h.created_at)! })),
    } : { ultimo: null, hits: [] };
  }
  if (has('movimenti')) {
    data.movements = (await movementsMonthlyVolumes(trx, codAnagrafe, MOVEMENT_MONTHS)).map((m) => ({ ...m }));
  }
  if (has('casi')) {
    data.cases = (await casesForCustomer(trx, codAzienda, codAnagrafe)).map((k) => ({
      titolo: k.titolo, tipo: k.tipo, stato: k.statoLabel, priorita: k.prioritaLabel, aperto: iso(k.created_at)!, chiuso: iso(k.closed_at),
    }));
  }
  return data;
}
