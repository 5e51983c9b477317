import type { DocumentSource } from '../../kit/document-sources';

/**
 * The kinds of document whose bytes the content-addressed document store keeps, indexed by the
 * spine's triggers on their areas' tables (their areas declare nothing else: a link and a name).
 * Kinds kept in their area's own rows (filing packages, signed documents) and confidential ones
 * (SOS attachments) are declared by their areas (`documentSources` in their area.ts).
 */
export const STORE_SOURCES: DocumentSource[] = [
  { tipo: 'caricamento', label: 'Caricato nell\'indice', href: (e) => (e.cod_anagrafe ? `/anagrafe/${e.cod_anagrafe}` : null) },
  { tipo: 'onboarding', label: 'Caricamento in onboarding', href: (e) => `/admin/onboarding/cases/${e.record_id}` },
  { tipo: 'documento', label: 'Documento di identità o societario', href: (e) => (e.record_codice ? `/documenti/${e.record_codice}` : null) },
  { tipo: 'evidenza', label: 'Evidenza di adeguata verifica', href: (e) => (e.record_codice ? `/cdd/evidence/${e.record_codice}` : null) },
];

export const RECORD_TIPO_LABELS: Record<string, string> = {
  anagrafe: 'Soggetto',
  onboarding: 'Pratica di onboarding',
  documento: 'Documento',
  cdd: 'Pratica di adeguata verifica',
  sos: 'Segnalazione SOS',
  filing: 'Comunicazione (filing)',
  esign: 'Cerimonia di firma',
  dossier: 'Dossier',
};

export const BLOCCO_LABELS: Record<string, string> = { true: 'Sotto blocco legale', false: 'Nessun blocco' };

export const CONSERVAZIONE_LABELS: Record<string, string> = {
  aperta: 'Non determinata: rapporto in essere',
  fine_rapporti: 'Dieci anni dalla fine dell\'ultimo rapporto',
  data_documento: 'Dieci anni dalla data del documento (nessun rapporto)',
};

export const MIME_LABELS: Record<string, string> = {
  'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'application/xml': 'XML', 'application/octet-stream': 'Binario',
};
