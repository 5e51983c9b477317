import type { Knex } from 'knex';
import type { ProfiloRischio } from '../risk.types';
import { countries, declaredVolume, emptyProfile, normaliseAnswers } from './engine.profile';

/**
 * Profiles of a batch of customers in one statement whatever the batch size (a branch per
 * source: the record, its links, its relationships, screening, the onboarding case and its
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

/** A `date` as node-postgres gives it (local midnight), from its ISO text. */
const localDay = (v: unknown): Date | null => {
  if (typeof v !== 'string') return null;
  const [y, m, d] = v.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
};

/**
 * Every source of a batch's profiles in ONE statement (one round trip, one plan): each source is
 * a branch of a UNION ALL tagged with its name, its row as JSON, only the columns the profile
 * uses (of the record's free `dati`, the four keys read). The customers and their links in
 * force are CTEs the other branches filter on.
 */
function profileSql(paesiControparti: boolean): string {
  const inBatch = 'in (select cod_anagrafe from a)';
  return `
with a as (
  select cod_anagrafe, tipo_soggetto, pep, attivita, volume_mensile_atteso_eur, to_char(data_nascita, 'YYYY-MM-DD') as data_nascita, nazionalita, paese_residenza, paese_fiscale,
         indirizzo ->> 'paese' as paese_indirizzo, created_at, onboarding_case_id,
         jsonb_build_object('settore', dati -> 'settore', 'paesi_operativita', dati -> 'paesi_operativita', 'canale', dati -> 'canale', 'intermediario', dati -> 'intermediario') as dati
    from anagrafe where cod_azienda = ? and cod_anagrafe = any(?::text[])
), l as (
  select l.cod_anagrafe_da, l.cod_anagrafe_a, l.tipo, b.pep, b.nazionalita, b.paese_residenza, b.paese_fiscale
    from legami l join anagrafe b on b.cod_azienda = l.cod_azienda and b.cod_anagrafe = l.cod_anagrafe_a
   where l.cod_azienda = ? and l.cod_anagrafe_da ${inBatch}
     and (l.al is null or l.al >= ?::date) and (l.dal is null or l.dal <= ?::date)
), c as (
  select id, canale, cdd_answers, countries from onboarding_cases where cod_azienda = ? and id in (select onboarding_case_id from a)
)
select 'a' as k, to_json(a) as r from a
union all select 'l', to_json(l) from l
union all select 'r', json_build_object('cod_anagrafe', rs.cod_anagrafe, 'tipo', r.tipo, 'stato', r.stato)
  from rapporti_soggetti rs join rapporti r on r.cod_azienda = rs.cod_azienda and r.cod_rapporto = rs.cod_rapporto
 where rs.cod_azienda = ? and rs.cod_anagrafe ${inBatch} and rs.al is null
union all select 's', json_build_object('cod_anagrafe', s.cod_anagrafe,
    'aperte', count(*) filter (where m.stato in ('open', 'assigned')), 'confermate', count(*) filter (where m.stato = 'true_match'))
  from screening_subjects s join screening_matches m on m.subject_id = s.id
 where s.cod_azienda = ? and s.cod_anagrafe in (select cod_anagrafe from a union select cod_anagrafe_a from l) and m.deleted_at is null
 group by s.cod_anagrafe
union all select 'c', to_json(c) from c
union all select 'wo', json_build_object('case_id', w.case_id, 'tipo', w.tipo, 'hit', coalesce((w.screening ->> 'hit')::boolean, false), 'volume_annuo_eur', w.volume_annuo_eur)
  from onboarding_wallets w where w.cod_azienda = ? and w.case_id in (select id from c) and w.stato <> 'revoked'
union all select 'w', json_build_object('cod_anagrafe', w.cod_anagrafe, 'tipo', w.tipo)
  from wallets w where w.cod_azienda = ? and w.cod_anagrafe ${inBatch} and w.stato <> 'revoked'
union all select 'q', json_build_object('cod_anagrafe', q.cod_anagrafe, 'risposte', q.risposte) from (
  select distinct on (cod_anagrafe) cod_anagrafe, risposte from questionari
   where cod_azienda = ? and stato = 'completato' and cod_anagrafe ${inBatch} order by cod_anagrafe, completed_at desc) q
${paesiControparti ? `union all select 'p', json_build_object('cod_anagrafe', cod_anagrafe, 'paesi', array_agg(distinct controparte_paese))
  from movimenti where cod_azienda = ? and cod_anagrafe ${inBatch}
   and data_operazione > ?::date - 365 and data_operazione <= ?::date and controparte_paese is not null
 group by cod_anagrafe` : ''}`;
}

export async function buildProfiles(trx: Knex.Transaction, codAzienda: string, codici: readonly string[], oggi: string,
  options: BuildProfilesOptions = {}): Promise<Map<string, ProfiloRischio>> {
  const cods = [...new Set(codici)];
  const out = new Map<string, ProfiloRischio>();
  if (!cods.length) return out;

  const az = codAzienda;
  const bindings: Knex.Value[] = [az, cods as unknown as Knex.Value, az, oggi, oggi, az, az, az, az, az, az,
    ...(options.paesiControparti ? [az, oggi, oggi] : [])];
  const { rows } = await trx.raw<{ rows: { k: string; r: Obj }[] }>(profileSql(options.paesiControparti === true), bindings);
  const by: Record<string, Obj[]> = { a: [], l: [], r: [], s: [], c: [], wo: [], w: [], q: [], p: [] };
  for (const row of rows) by[row.k]!.push(row.r);
  const anagrafe = by.a!;
  if (!anagrafe.length) return out;
  for (const a of anagrafe) a.data_nascita = localDay(a.data_nascita);
  // Links in code order: the countries of the linked people read in a stable order.
  const legami = by.l!.sort((x, y) => (String(x.cod_anagrafe_a) < String(y.cod_anagrafe_a) ? -1 : String(x.cod_anagrafe_a) > String(y.cod_anagrafe_a) ? 1 : 0));
  const [rapporti, screening, casi, walletsOnb, wallets, questionari, controparti] = [by.r!, by.s!, by.c!, by.wo!, by.w!, by.q!, by.p!];

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
    p.dichiarato = {
      volume_annuo_eur: declaredVolume(questionario, wOnb.map((w) => (w.volume_annuo_eur == null ? null : Number(w.volume_annuo_eur))),
        a.volume_mensile_atteso_eur == null ? null : Number(a.volume_mensile_atteso_eur)),
    };
    p.questionario = questionario;
    out.set(cod, p);
  }
  return out;
}
