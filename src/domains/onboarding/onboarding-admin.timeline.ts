import type { Knex } from 'knex';
import { auditTimeline, type TimelineItem } from '../../kit/timeline';
import {
  CERIMONIA_SCOPO_LABELS, DOCUMENTO_LABELS, LINK_LABELS, MODIFICA_LABELS, RISCHIO_LABELS, SEZIONE_LABELS, STATO_LABELS, WALLET_TIPO_LABELS,
} from './onboarding-admin.labels';
import type { TimelineEvent } from './onboarding-admin.service';

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('it-IT') : str(v));

/** What matters to a reviewer in one event, beyond its title, its actor and its reason. */
function detail(e: TimelineEvent): string[] {
  const d = e.data ?? {};
  const lines: string[] = [];
  if (e.action === 'onboarding.edit') {
    if (d.kind === 'section') lines.push(`Sezione: ${SEZIONE_LABELS[str(d.section)] ?? str(d.section)}`);
    if (d.tipo && d.kind !== 'wallet-add') lines.push(DOCUMENTO_LABELS[str(d.tipo)] ?? str(d.tipo));
    if (d.kind === 'wallet-add') lines.push(`${str(d.rete)}, ${WALLET_TIPO_LABELS[str(d.tipo)] ?? str(d.tipo)}`);
  }
  if (e.action === 'onboarding.validate') lines.push(d.ok ? 'Pratica completa' : `Problemi da correggere: ${n(d.issues)}`);
  if (e.action === 'onboarding.screen') lines.push(`Soggetti controllati: ${n(d.subjects)}; corrispondenze: ${n(d.matches)}`);
  if (e.action === 'onboarding.screen-wallets') lines.push(`Wallet controllati: ${n(d.wallets)}; in lista: ${n(d.hits)}`);
  if (e.action === 'onboarding.risk') lines.push(`Punteggio ${n(d.score)}, rischio ${(RISCHIO_LABELS[str(d.classe)] ?? str(d.classe)).toLowerCase()}${d.second_approval_required ? '; servono due approvazioni' : ''}`);
  if (e.action === 'onboarding.signing') lines.push(CERIMONIA_SCOPO_LABELS[str(d.purpose)] ?? str(d.purpose));
  if (e.action === 'onboarding.ceremony') lines.push(`${CERIMONIA_SCOPO_LABELS[str(d.purpose)] ?? str(d.purpose)}: ${d.outcome === 'signed' ? 'firmata' : 'conclusa senza firma'}`);
  if (e.action === 'onboarding.link') lines.push(LINK_LABELS[str(d.purpose)] ?? str(d.purpose));
  if (e.action === 'onboarding.outcome-sent') lines.push(d.outcome === 'approved' ? 'Pratica approvata' : d.outcome === 'rejected' ? 'Pratica respinta' : '');
  if (e.action === 'onboarding.materialise') lines.push(`Codice anagrafe ${str(d.cod_anagrafe)}${d.cod_rapporto ? `, rapporto ${str(d.cod_rapporto)}` : ''}`);
  if (e.action === 'onboarding.document.download') lines.push(DOCUMENTO_LABELS[str(d.tipo)] ?? str(d.tipo));
  return lines.filter(Boolean);
}

/** The onboarding case's timeline: its events and those of its ceremonies and wallets, in Italian words. */
export function onboardingTimeline(trx: Knex.Transaction, events: TimelineEvent[]): Promise<TimelineItem[]> {
  return auditTimeline(trx, events, {
    // A ceremony's and a wallet's own states are already in the title.
    states: (e) => (e.entity_type === 'onboarding_case' ? STATO_LABELS : undefined),
    title: (e) => (e.action === 'onboarding.edit' ? MODIFICA_LABELS[str(e.data?.kind)] : undefined),
    detail,
    tone: (e) => (/reject|revoke|expire|erase|otp-failed|lock|cancel/.test(e.action) ? 'red' : /approv|verify|materialise|sign$/.test(e.action) ? 'green'
      : e.action.startsWith('esign.') ? 'cyan' : e.action === 'onboarding.edit' || e.action === 'onboarding.document.download' ? 'secondary' : 'blue'),
  });
}
