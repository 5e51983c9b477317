import type { Knex } from 'knex';
import type { ProfiloRischio } from '../risk.types';
import { countries, declaredVolume, emptyProfile, normaliseAnswers } from './engine.profile';

/**
 * Profiles of a batch of customers in a fixed number of queries whatever the batch size (one
 * per source: the record, its links, its relationships, screening, the onboarding case and its
 * wallets, the latest completed questionnaire, and optionally the counterparty countries). Other
 * areas' tables are read, never written: the records, screening, onboarding and CDD tables
 * are their areas' public data model.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const DAY = 86_400_000;
const daysBetween = (from: Date | string, oggi: string) => Math.floor((Date.parse(`${oggi}T00:00:00Z`) - new Date(from).getTime()) / DAY);

export interface BuildProfilesOptions {
  /** Read the counterparty countries of the last 365 days' movements (only when a rule reads `geografia.paesi_controparti`). */
  paesiControparti?: boolean;
}

const groupBy = <T extends Obj>(rows: T[], key: keyof T) => {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = String(r[key]);
    const list = m.get(k);
    if (list) list.push(r); else m.set(k, [r]);
  }
  return m;
};

export async function buildProfiles(trx: Knex.Transaction, codAzienda: string, codici: readonly string[], oggi: string,
  options: BuildProfilesOptions = {}): Promise<Map<string, ProfiloRischio>> {
  const cods = [...new Set(codici)];
  const out = new Map<string, ProfiloRischio>();
  if (!cods.length) return out;

  const anagrafe = await trx('anagrafe').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', cods)
    .select('cod_anagrafe', 'tipo_soggetto', 'pep', 'attivita', 'data_nascita', 'nazionalita', 'paese_residenza', 'paese_fiscale',
      trx.raw("indirizzo ->> 'paese' as paese_indirizzo"), 'created_at', 'onboarding_case_id', 'dati') as Obj[];
  if (!anagrafe.length) return out;
  const found = anagrafe.map((a) => String(a.cod_anagrafe));
  const caseIds = [...new Set(anagrafe.map((a) => a.onboarding_case_id).filter((x): x is string => typeof x === 'string'))];

  // Links in force on the day: the people and entities behind the customer (owners, representatives, family of a PEP...).
  const legami = await trx('legami as l')
    .join('anagrafe as b', function on() { this.on('b.cod_azienda', 'l.cod_azienda').andOn('b.cod_anagrafe', 'l.cod_anagrafe_a'); })
    .where('l.cod_azienda', codAzienda).whereIn('l.cod_anagrafe_da', found)
    .where((q) => q.whereNull('l.al').orWhere('l.al', '>=', oggi)).where((q) => q.whereNull('l.dal').orWhere('l.dal', '<=', oggi))
    .select('l.cod_anagrafe_da', 'l.cod_anagrafe_a', 'l.tipo', 'b.pep', 'b.nazionalita', 'b.paese_residenza', 'b.paese_fiscale') as Obj[];
  const linked = [...new Set(legami.map((l) => String(l.cod_anagrafe_a)))];

  const [rapporti, screening, casi, walletsOnb, wallets, questionari, controparti] = await Promise.all([
    trx('rapporti_soggetti as rs')
      .join('rapporti as r', function on() { this.on('r.cod_azienda', 'rs.cod_azienda').andOn('r.cod_rapporto', 'rs.cod_rapporto'); })
      .where('rs.cod_azienda', codAzienda).whereIn('rs.cod_anagrafe', found).whereNull('rs.al')
      .select('rs.cod_anagrafe', 'r.tipo', 'r.stato') as Promise<Obj[]>,
    // Matches of the customer and of everyone linked to it: an owner on a sanctions list is the customer's risk.
    trx('screening_subjects as s').join('screening_matches as m', 'm.subject_id', 's.id')
      .where('s.cod_azienda', codAzienda).whereIn('s.cod_anagrafe', [...new Set([...found, ...linked])]).whereNull('m.deleted_at')
      .groupBy('s.cod_anagrafe')
      .select('s.cod_anagrafe', trx.raw("count(*) filter (where m.stato in ('open', 'assigned'))::int as aperte"),
        trx.raw("count(*) filter (where m.stato = 'true_match')::int as confermate")) as Promise<Obj[]>,
    caseIds.length
      ? trx('onboarding_cases').where({ cod_azienda: codAzienda }).whereIn('id', caseIds).select('id', 'canale', 'cdd_answers', 'countries') as Promise<Obj[]>
      : Promise.resolve([] as Obj[]),
    caseIds.length
      ? trx('onboarding_wallets').where({ cod_azienda: codAzienda }).whereIn('case_id', caseIds).whereNot('stato', 'revoked')
        .select('case_id', 'tipo', trx.raw("coalesce((screening ->> 'hit')::boolean, false) as hit"), 'volume_annuo_eur') as Promise<Obj[]>
      : Promise.resolve([] as Obj[]),
    trx('wallets').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', found).whereNot('stato', 'revoked').select('cod_anagrafe', 'tipo') as Promise<Obj[]>,
    trx('questionari').where({ cod_azienda: codAzienda, stato: 'completato' }).whereIn('cod_anagrafe', found)
      .distinctOn('cod_anagrafe').orderBy([{ column: 'cod_anagrafe' }, { column: 'completed_at', order: 'desc' }])
      .select('cod_anagrafe', 'risposte') as Promise<Obj[]>,
    options.paesiControparti
      ? trx('movimenti').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', found)
        .where('data_operazione', '>', trx.raw("?::date - 365", [oggi])).where('data_operazione', '<=', oggi).whereNotNull('controparte_paese')
        .groupBy('cod_anagrafe').select('cod_anagrafe', trx.raw('array_agg(distinct controparte_paese) as paesi')) as Promise<Obj[]>
      : Promise.resolve([] as Obj[]),
  ]);

  const legamiBy = groupBy(legami, 'cod_anagrafe_da');
  const rapportiBy = groupBy(rapporti, 'cod_anagrafe');
  const screeningBy = new Map(screening.map((s) => [String(s.cod_anagrafe), s]));
  const casiBy = new Map(casi.map((c) => [String(c.id), c]));
  const walletsOnbBy = groupBy(walletsOnb, 'case_id');
  const walletsBy = groupBy(wallets, 'cod_anagrafe');
  const questionariBy = new Map(questionari.map((q) => [String(q.cod_anagrafe), q]));
  const contropartiBy = new Map(controparti.map((c) => [String(c.cod_anagrafe), c.paesi as string[]]));

  for (const a of anagrafe) {
    const cod = String(a.cod_anagrafe);
    const p = emptyProfile();
    const dati = isObj(a.dati) ? a.dati : {};
    const caso = typeof a.onboarding_case_id === 'string' ? casiBy.get(a.onboarding_case_id) : undefined;
    const links = legamiBy.get(cod) ?? [];
    const owners = links.filter((l) => l.tipo === 'titolare_effettivo');
    // The onboarding answers, then the latest completed CDD questionnaire's on top (the newer word wins).
    const questionario = { ...normaliseAnswers(caso?.cdd_answers), ...normaliseAnswers(questionariBy.get(cod)?.risposte) };

    const tipo = str(a.tipo_soggetto);
    p.cliente = {
      cod_anagrafe: cod,
      tipo_soggetto: tipo === 'persona_fisica' || tipo === 'ditta_individuale' || tipo === 'societa' ? tipo : null,
      pep: a.pep === true,
      pep_collegati: a.pep === true || links.some((l) => l.pep === true),
      attivita: str(a.attivita),
      settore: str(questionario.settore) ?? str(dati.settore),
      eta_anni: a.data_nascita && tipo !== 'societa' ? Math.floor(daysBetween(a.data_nascita as Date, oggi) / 365.25) : null,
      anzianita_giorni: a.created_at ? Math.max(0, daysBetween(a.created_at as Date, oggi)) : null,
    };

    const operativita = countries([
      ...(Array.isArray(caso?.countries) ? (caso.countries as Obj[]).map((c) => (isObj(c) ? c.paese : c)) : []),
      ...(Array.isArray(questionario.paesi_operativita) ? questionario.paesi_operativita : []),
      ...(Array.isArray(dati.paesi_operativita) ? dati.paesi_operativita : []),
    ]);
    const collegati = countries(links.flatMap((l) => [l.nazionalita, l.paese_residenza, l.paese_fiscale]));
    const own = [a.nazionalita, a.paese_residenza, a.paese_fiscale, a.paese_indirizzo];
    p.geografia = {
      nazionalita: str(a.nazionalita)?.toUpperCase() ?? null,
      paese_residenza: str(a.paese_residenza)?.toUpperCase() ?? null,
      paese_fiscale: str(a.paese_fiscale)?.toUpperCase() ?? null,
      paesi_operativita: operativita,
      paesi_collegati: collegati,
      paesi: countries([...own, ...operativita, ...collegati]),
      paesi_controparti: countries(contropartiBy.get(cod) ?? []),
    };

    const rs = rapportiBy.get(cod) ?? [];
    const wOnb = caso ? walletsOnbBy.get(String(caso.id)) ?? [] : [];
    const wCust = walletsBy.get(cod) ?? [];
    const tipiRapporto = [...new Set(rs.map((r) => String(r.tipo)))].sort();
    p.prodotto = {
      tipi_rapporto: tipiRapporto,
      rapporti_attivi: rs.filter((r) => r.stato === 'attivo').length,
      wallet_self_hosted: Math.max(wCust.filter((w) => w.tipo === 'self_hosted').length, wOnb.filter((w) => w.tipo === 'self_hosted').length),
      wallet_sanzionati: wOnb.filter((w) => w.hit === true).length,
      crypto: wCust.length > 0 || wOnb.length > 0 || tipiRapporto.some((t) => /cript|crypt|wallet/i.test(t)),
    };

    const canale = str(caso?.canale) ?? str(dati.canale);
    p.canale = { canale: canale === 'online' || canale === 'sportello' ? canale : null, intermediario: dati.intermediario === true };

    const sc = [...new Set([cod, ...links.map((l) => String(l.cod_anagrafe_a))])].map((c) => screeningBy.get(c));
    p.screening = {
      corrispondenze_aperte: sc.reduce((n, s) => n + (Number(s?.aperte) || 0), 0),
      corrispondenze_confermate: sc.reduce((n, s) => n + (Number(s?.confermate) || 0), 0),
    };
    p.titolari = { numero: new Set(owners.map((o) => o.cod_anagrafe_a)).size, pep: owners.some((o) => o.pep === true) };
    p.dichiarato = { volume_annuo_eur: declaredVolume(questionario, wOnb.map((w) => (w.volume_annuo_eur == null ? null : Number(w.volume_annuo_eur)))) };
    p.questionario = questionario;
    out.set(cod, p);
  }
  return out;
}
