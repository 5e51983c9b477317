import type { Knex } from 'knex';
import type { MessageKind, Outbox, QueuedMessage } from '../outbox';

/**
 * Messages to the applicant, who has no account and so no in-app notifications: each is
 * written to the outbox in the transaction that makes its link or records its cause.
 */
export type CustomerMessageKind = Extract<MessageKind, 'resume' | 'info_request' | 'reminder' | 'outcome'>;

export const queueCustomerMessage = (outbox: Outbox, trx: Knex.Transaction, m: {
  codAzienda: string; caseId: string; to: string; kind: CustomerMessageKind; subject: string; text: string; dedupKey: string;
}): Promise<QueuedMessage | null> =>
  outbox.enqueue(trx, { codAzienda: m.codAzienda, kind: m.kind, to: m.to, subject: m.subject, text: m.text, entity: { type: 'onboarding_case', id: m.caseId }, dedupKey: m.dedupKey });

const scadenza = (d: Date) => d.toLocaleString('it-IT', { timeZone: 'Europe/Rome' });

export const resumeLinkMessage = (p: { link: string; ttlHours: number; byStaff: boolean }) => ({
  subject: 'Il link per riprendere la tua pratica',
  text: p.byStaff
    ? `L'intermediario ti invia il link per riprendere la tua pratica. Vale ${p.ttlHours} ore e si può usare una sola volta: ${p.link}`
    : `Per riprendere la tua pratica apri questo link. Vale ${p.ttlHours} ore e si può usare una sola volta: ${p.link}`,
});

export const infoLinkMessage = (p: { purpose: 'info_request' | 'reminder'; link: string; expiresAt: Date; message: string | null }) => ({
  subject: p.purpose === 'info_request' ? 'Richiesta di integrazione della tua pratica' : 'Promemoria: la tua pratica attende le integrazioni richieste',
  text: p.purpose === 'info_request'
    ? `Per completare l'esame della tua pratica ci servono alcune integrazioni:\n\n${p.message ?? ''}\n\nRiprendi la pratica da questo link (valido fino al ${scadenza(p.expiresAt)}): ${p.link}`
    : `La tua pratica attende ancora le integrazioni richieste${p.message ? `:\n\n${p.message}\n\n` : '. '}Riprendila da questo link (valido fino al ${scadenza(p.expiresAt)}): ${p.link}`,
});

/** The decision and nothing more: a refusal may follow a suspicion, and its reason would be tipping-off (art. 39 d.lgs. 231/2007). */
export const outcomeMessage = (outcome: 'approved' | 'rejected') => outcome === 'approved'
  ? { subject: 'La tua richiesta è stata accolta', text: 'Ti informiamo che la tua richiesta di apertura del rapporto è stata accolta. Riceverai a parte le istruzioni per iniziare a operare.' }
  : { subject: 'Esito della tua richiesta', text: 'Ti informiamo che non è stato possibile accogliere la tua richiesta di apertura del rapporto. Per informazioni puoi rivolgerti ai nostri uffici.' };
