import type { TravelRuleAction } from '../../../../workflows/travel-rule/travel-rule.machine';
import { STATO_TRAVEL_RULE_LABELS, STATO_TRAVEL_RULE_TONES, type DecisioneTravelRule, type DirezioneTravelRule } from '../verifications.vocabulary';
import type { EsitoRegola } from './travel-rule.rules';
import type { RuoloSoggetto } from './travel-rule.types';

/** The Italian words of the travel-rule pages and the diagram. */
export const AZIONE_LABELS: Record<TravelRuleAction, string> = {
  screen: 'Esegui lo screening', approve: 'Approva', hold: 'Sospendi e richiedi informazioni', return: 'Restituisci', reject: 'Respingi', complete: 'Integra i dati',
};
export const DECISIONE_LABELS: Record<DecisioneTravelRule, string> = {
  approved: 'Approvata', held: 'Sospesa (informazioni richieste)', returned: 'Restituita', rejected: 'Respinta',
};
export const DIREZIONE_LABELS: Record<DirezioneTravelRule, string> = { in_uscita: 'In uscita (siamo il prestatore dell\'ordinante)', in_entrata: 'In entrata (siamo il prestatore del beneficiario)' };
export const DIREZIONE_SHORT: Record<DirezioneTravelRule, string> = { in_uscita: 'In uscita', in_entrata: 'In entrata' };
export const TIPO_WALLET_LABELS: Record<'vasp' | 'self_hosted', string> = { vasp: 'Presso un prestatore (VASP)', self_hosted: 'Autogestito (self-hosted)' };
export const ESITO_REGOLA_LABELS: Record<EsitoRegola, string> = { rispettata: 'Rispettata', mancante: 'Informazioni mancanti', violata: 'Violata', non_applicabile: 'Non applicabile' };
export const ESITO_REGOLA_TONES: Record<EsitoRegola, string> = { rispettata: 'success', mancante: 'warning', violata: 'danger', non_applicabile: 'secondary' };
export const RUOLO_LABELS: Record<RuoloSoggetto, string> = {
  originatore: 'Ordinante', beneficiario: 'Beneficiario', vasp_originatore: 'Prestatore dell\'ordinante', vasp_beneficiario: 'Prestatore del beneficiario', intermediario: 'Prestatore intermedio',
};
export const REGOLA_LABELS: Record<string, string> = {
  originatore_nome: 'Nome dell\'ordinante', originatore_conto: 'Indirizzo o conto dell\'ordinante', originatore_identificazione: 'Identificazione dell\'ordinante',
  beneficiario_nome: 'Nome del beneficiario', beneficiario_conto: 'Indirizzo o conto del beneficiario', prova_controllo: 'Prova di controllo dell\'indirizzo autogestito',
  sanzioni_nomi: 'Liste sanzioni: nomi', sanzioni_indirizzi: 'Liste sanzioni: indirizzi', richieste_ripetute: 'Richieste di informazioni ripetute',
  termine_integrazione: 'Termine per l\'integrazione',
};

export const TRAVEL_RULE_LABELS = {
  stato: STATO_TRAVEL_RULE_LABELS, statoTone: STATO_TRAVEL_RULE_TONES, azione: AZIONE_LABELS, decisione: DECISIONE_LABELS, direzione: DIREZIONE_LABELS,
  direzioneBreve: DIREZIONE_SHORT, tipoWallet: TIPO_WALLET_LABELS, esito: ESITO_REGOLA_LABELS, esitoTone: ESITO_REGOLA_TONES, ruolo: RUOLO_LABELS, regola: REGOLA_LABELS,
};

/** The wording of the machine's refusals on these pages and in the API. */
export const REJECTION_MESSAGES = {
  FORBIDDEN: 'Il tuo ruolo non consente questa azione sul trasferimento',
};

/** A crypto amount as stored (numeric(38,18) as text) in Italian notation, every significant decimal kept: "1.234,5". */
export function cryptoAmount(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  const [int = '0', frac = ''] = String(v).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const decimals = frac.replace(/0+$/, '');
  return decimals ? `${grouped},${decimals}` : grouped;
}
