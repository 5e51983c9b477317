import type { MessageStatus } from '../../../workflows/outbox/outbox.contract';
import type { MessageKind } from './outbox.enqueue';

export const KIND_LABELS: Record<MessageKind, string> = {
  otp: 'Codice di firma', resume: 'Link per riprendere la pratica', info_request: 'Richiesta di integrazioni',
  reminder: 'Promemoria integrazioni', outcome: 'Esito dell’onboarding', notification: 'Notifica al personale',
};

export const STATUS_LABELS: Record<MessageStatus, { label: string; tone: string }> = {
  pending: { label: 'In consegna', tone: 'blue' },
  sent: { label: 'Inviato', tone: 'green' },
  failed: { label: 'Non consegnato', tone: 'red' },
};
