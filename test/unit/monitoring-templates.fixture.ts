import { addDays } from '../../src/domains/monitoring/engine/engine.dates';
import {
  evaluateEvent, prepareRules, replayCustomer, type MovimentoMonitorato, type ProfiloCliente,
} from '../../src/domains/monitoring/engine';
import { toEngineVersion } from '../../src/domains/monitoring/evaluation/rule-set';
import { templateRuleVersions } from '../../src/domains/monitoring/templates';

/**
 * Small hand-made histories for the templates' unit tests: an ordinary person (salary in, card
 * spending, a utility bill every month from July 2024) and the patterns and look-alikes each test
 * adds, replayed through the engine as the daily batch and real time would run them.
 */

export const LISTE = {
  paesi_alto_rischio: { versione: 'v1', voci: new Set(['IR', 'KP', 'MM']) },
  paesi_gafi_black: { versione: 'v1', voci: new Set(['IR', 'KP', 'MM']) },
  indirizzi_crypto_sanzionati: { versione: 'v1', voci: new Set(['0x8589427373d6d84e98730d7795d8f6f8731fda16']) },
  indirizzi_crypto_tenant: { versione: 'v1', voci: new Set(['bc1qtenantlistaddress0000000000000000']) },
};

export const profilo = (over: Partial<ProfiloCliente> = {}): ProfiloCliente => ({
  cod_anagrafe: 'C-1', tipo_soggetto: 'persona_fisica', data_onboarding: '2024-01-15', volume_mensile_atteso_eur: 3_000,
  uso_contanti_atteso: 'basso', rapporti: [{ cod_rapporto: 'R-1', data_apertura: '2024-01-15', intestatari: ['C-1'] }], ...over,
});

let seq = 0;
export const mov = (giorno: string, importo: number, segno: 'entrata' | 'uscita', over: Partial<MovimentoMonitorato> = {}): MovimentoMonitorato => ({
  id: `m${String(++seq).padStart(6, '0')}`, cod_anagrafe: 'C-1', cod_rapporto: 'R-1', data_operazione: giorno, importo_eur: importo, segno,
  contanti: false, canale: 'bonifico', ...over,
});

const MERCHANTS = ['Supermercato', 'Farmacia', 'Carburante', 'Ristorante'];
/** An employee's ordinary months from `dal` for `mesi` months: salary, card spending, a bill. */
export function ordinary(dal = '2024-07-01', mesi = 12, stipendio = 2_100): MovimentoMonitorato[] {
  const out: MovimentoMonitorato[] = [];
  for (let m = 0; m < mesi; m++) {
    const start = addDays(dal, m * 30);
    out.push(mov(addDays(start, 26), stipendio, 'entrata', { causale: 'Stipendio', controparte_nome: 'Datore S.r.l.', controparte_conto: 'IT60X0542811101000000123456' }));
    for (let k = 0; k < 8; k++) {
      out.push(mov(addDays(start, 2 + k * 3), 35 + 7 * k, 'uscita', { canale: 'carta', causale: 'Pagamento carta', controparte_nome: MERCHANTS[k % MERCHANTS.length]! }));
    }
    out.push(mov(addDays(start, 10), 120, 'uscita', { causale: 'Utenza', controparte_nome: 'Energia S.p.A.', controparte_conto: 'IT02L1234512345123456789012' }));
  }
  return out;
}

export const sorted = (ms: MovimentoMonitorato[]) => [...ms].sort((a, b) => a.data_operazione.localeCompare(b.data_operazione) || a.id.localeCompare(b.id));

/** The days (first hit of each alert) a template raises over the history, replayed from `dal` to `al`. */
export function alertsOf(codRegola: string, p: ProfiloCliente, storico: MovimentoMonitorato[], dal = '2025-01-01', al = '2025-12-31'): string[] {
  const regole = prepareRules(templateRuleVersions().filter((v) => v.cod_regola === codRegola).map(toEngineVersion), LISTE);
  if (!regole.versioni.length) throw new Error(`no template ${codRegola}`);
  const { candidati } = replayCustomer(regole, { profilo: p, storico: sorted(storico), dal, al });
  return candidati.filter((c) => c.dedup === 'nuovo').map((c) => c.data_rilevazione);
}

/** Real time: does the template fire on this one event, with the history before it? */
export function firesOn(codRegola: string, p: ProfiloCliente, storico: MovimentoMonitorato[], evento: MovimentoMonitorato): boolean {
  const regole = prepareRules(templateRuleVersions().filter((v) => v.cod_regola === codRegola).map(toEngineVersion), LISTE);
  return evaluateEvent(regole, { profilo: p, storico: sorted(storico), evento }).esito !== 'nessuna_anomalia';
}

/** `n` days from `giorno`, one movement a day, each built by `f(i)`. */
export const series = (giorno: string, n: number, f: (i: number, day: string) => MovimentoMonitorato) => Array.from({ length: n }, (_, i) => f(i, addDays(giorno, i)));
