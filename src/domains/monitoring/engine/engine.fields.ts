import { isRoundAmount, ibanCountry, validateCondition, type ConditionIssue } from '../../../kit/conditions';
import { atecoSection } from './engine.ateco';
import { dayNumber, isoWeekday, monthsBetween, yearsBetween } from './engine.dates';
import type { Giorno, MovimentoMonitorato, ProfiloCliente, RapportoMonitorato } from './engine.types';

/**
 * What a monitoring rule may read (docs/monitoring.md "The condition language for monitoring"):
 * the evaluated event (`evento.*`), the customer's profile (`cliente.*`), what the customer declared
 * (`dichiarato.*`) and the evaluated relationship (`rapporto.*`), plus the named lists. The catalogue
 * carries each field's type and Italian description for the rule-building pages; validation refuses
 * any other path.
 */

export type TipoCampo = 'numero' | 'testo' | 'sì/no';
export interface CampoMonitoraggio { path: string; tipo: TipoCampo; descrizione: string; valori?: readonly string[] }

const campo = (path: string, tipo: TipoCampo, descrizione: string, valori?: readonly string[]): CampoMonitoraggio =>
  ({ path, tipo, descrizione, ...(valori ? { valori } : {}) });

export const CAMPI_MONITORAGGIO: readonly { gruppo: string; campi: readonly CampoMonitoraggio[] }[] = [
  {
    gruppo: 'Operazione valutata (solo regole in tempo reale)',
    campi: [
      campo('evento.importo_eur', 'numero', 'Importo in euro'),
      campo('evento.segno', 'testo', 'Segno', ['entrata', 'uscita']),
      campo('evento.contanti', 'sì/no', 'Operazione in contanti'),
      campo('evento.causale', 'testo', 'Causale'),
      campo('evento.canale', 'testo', 'Canale'),
      campo('evento.controparte_paese', 'testo', 'Paese della controparte (ISO)'),
      campo('evento.controparte_iban_paese', 'testo', "Paese dell'IBAN della controparte"),
      campo('evento.controparte_conto', 'testo', 'Conto della controparte'),
      campo('evento.ora', 'numero', "Ora dell'operazione (0–23), se nota"),
      campo('evento.giorno_settimana', 'numero', 'Giorno della settimana (1 lunedì … 7 domenica)'),
      campo('evento.importo_tondo', 'sì/no', 'Importo tondo (multiplo di 500 €)'),
      campo('evento.esecutore_terzo', 'sì/no', "Eseguita da un soggetto che non è intestatario del rapporto"),
      campo('evento.indirizzo_controparte', 'testo', 'Indirizzo cripto della controparte'),
      campo('evento.asset', 'testo', 'Cripto-attività (BTC, ETH…)'),
      campo('evento.chain', 'testo', 'Blockchain'),
    ],
  },
  {
    gruppo: 'Cliente',
    campi: [
      campo('cliente.tipo_soggetto', 'testo', 'Tipo di soggetto', ['persona_fisica', 'ditta_individuale', 'societa']),
      campo('cliente.ateco', 'testo', 'Codice ATECO'),
      campo('cliente.ateco_sezione', 'testo', 'Sezione ATECO (A–U)'),
      campo('cliente.professione', 'testo', 'Professione'),
      campo('cliente.pep', 'sì/no', 'Persona politicamente esposta'),
      campo('cliente.classe_rischio', 'testo', 'Classe di rischio', ['basso', 'medio', 'medio_alto', 'alto']),
      campo('cliente.paese_residenza', 'testo', 'Paese di residenza o sede'),
      campo('cliente.eta', 'numero', 'Età in anni (persone fisiche)'),
      campo('cliente.mesi_da_onboarding', 'numero', "Mesi dall'inizio del rapporto con il cliente"),
      campo('cliente.giorni_da_onboarding', 'numero', "Giorni dall'inizio del rapporto con il cliente"),
    ],
  },
  {
    gruppo: 'Profilo dichiarato',
    campi: [
      campo('dichiarato.volume_mensile_eur', 'numero', 'Volume mensile atteso in euro'),
      campo('dichiarato.uso_contanti', 'testo', 'Uso di contanti atteso', ['nessuno', 'basso', 'medio', 'alto']),
    ],
  },
  {
    gruppo: 'Rapporto',
    campi: [
      campo('rapporto.tipo', 'testo', 'Tipo di rapporto'),
      campo('rapporto.mesi_da_apertura', 'numero', "Mesi dall'apertura del rapporto"),
    ],
  },
];

export const MONITORING_FIELDS: ReadonlySet<string> = new Set(CAMPI_MONITORAGGIO.flatMap((g) => g.campi.map((c) => c.path)));

/** Where ratio_declared reads the declared volume, and the period it covers (a month). */
export const DECLARED_FIELD = 'dichiarato.volume_mensile_eur';
export const DECLARED_DAYS = 30;

/** The named lists the standard templates read; a tenant's own lists are added by name. */
export const LISTE_MONITORAGGIO = {
  paesi_alto_rischio: 'Paesi terzi ad alto rischio (Reg. delegato UE 2016/1675)',
  paesi_gafi_black: 'Paesi GAFI "call for action"',
  paesi_gafi_grey: 'Paesi GAFI sotto monitoraggio rafforzato',
  paesi_see: 'Spazio economico europeo',
  paesi_extra_see: 'Paesi fuori dallo Spazio economico europeo',
  indirizzi_crypto_sanzionati: 'Indirizzi cripto sanzionati (OFAC)',
  indirizzi_crypto_tenant: "Indirizzi cripto della lista interna",
} as const;
export const MONITORING_LIST_NAMES: ReadonlySet<string> = new Set(Object.keys(LISTE_MONITORAGGIO));

/**
 * A monitoring rule's condition: the language's checks (every function and filter is allowed: the
 * engine computes them all), the catalogue of fields, the known lists (the standard ones and the
 * tenant's own names).
 */
export function validateMonitoringCondition(c: unknown, tenantLists: Iterable<string> = []): ConditionIssue[] {
  return validateCondition(c, { campi: MONITORING_FIELDS, liste: new Set([...MONITORING_LIST_NAMES, ...tenantLists]) });
}

/** `cliente.*` and `dichiarato.*` on a day (ages and seniority depend on it). */
export function customerData(p: ProfiloCliente, giorno: Giorno): { cliente: Record<string, unknown>; dichiarato: Record<string, unknown> } {
  const onboarding = p.data_onboarding ?? null;
  return {
    cliente: {
      tipo_soggetto: p.tipo_soggetto, ateco: p.ateco ?? null, ateco_sezione: atecoSection(p.ateco), professione: p.professione ?? null,
      pep: p.pep ?? null, classe_rischio: p.classe_rischio ?? null, paese_residenza: p.paese_residenza ?? null,
      eta: p.tipo_soggetto === 'persona_fisica' ? yearsBetween(p.data_nascita, giorno) : null,
      mesi_da_onboarding: monthsBetween(onboarding, giorno),
      giorni_da_onboarding: onboarding ? dayNumber(giorno) - dayNumber(onboarding) : null,
    },
    dichiarato: { volume_mensile_eur: p.volume_mensile_atteso_eur ?? null, uso_contanti: p.uso_contanti_atteso ?? null },
  };
}

export function relationshipData(r: RapportoMonitorato | undefined, giorno: Giorno): Record<string, unknown> | null {
  return r ? { tipo: r.tipo ?? null, mesi_da_apertura: monthsBetween(r.data_apertura, giorno) } : null;
}

/** `evento.*` of a movement. */
export function eventData(m: MovimentoMonitorato, r: RapportoMonitorato | undefined): Record<string, unknown> {
  const hour = m.ora_operazione ? Number(m.ora_operazione.slice(0, 2)) : null;
  const executor = m.cod_anagrafe_esecutore ?? null;
  return {
    importo_eur: m.importo_eur, segno: m.segno, contanti: m.contanti, causale: m.causale ?? null, canale: m.canale ?? null,
    controparte_paese: m.controparte_paese ?? null, controparte_iban_paese: ibanCountry(m.controparte_conto), controparte_conto: m.controparte_conto ?? null,
    ora: hour !== null && Number.isInteger(hour) && hour >= 0 && hour < 24 ? hour : null,
    giorno_settimana: isoWeekday(dayNumber(m.data_operazione)),
    importo_tondo: isRoundAmount(m.importo_eur),
    esecutore_terzo: executor === null ? false : !(r?.intestatari ?? [m.cod_anagrafe]).includes(executor),
    indirizzo_controparte: m.indirizzo_controparte ?? null, asset: m.asset ?? null, chain: m.chain ?? null,
  };
}
