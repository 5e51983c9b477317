import { STATO_DOCUMENTO_LABELS, TIPO_DOCUMENTO_LABELS, TIPI_DOCUMENTO } from '../../records';
import { ESITO_DOCUMENTO_LABELS } from '../verifications.vocabulary';
import { CONTROLLO_DOCUMENTO_LABELS, ESITO_CONTROLLO_LABELS } from './document-checks';

/** What the /documenti pages name and colour. */
export const DOCUMENT_PAGE_LABELS = {
  tipo: TIPO_DOCUMENTO_LABELS,
  stato: STATO_DOCUMENTO_LABELS,
  statoTone: { valido: 'green', scaduto: 'red', sostituito: 'secondary' } as Record<string, string>,
  esito: ESITO_DOCUMENTO_LABELS,
  esitoTone: { da_verificare: 'secondary', valido: 'green', non_valido: 'red' } as Record<string, string>,
  controllo: CONTROLLO_DOCUMENTO_LABELS,
  esitoControllo: ESITO_CONTROLLO_LABELS,
  esitoControlloTone: { ok: 'green', ko: 'red', non_applicabile: 'secondary' } as Record<string, string>,
  mime: { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG' } as Record<string, string>,
};

export const TIPO_DOCUMENTO_OPTIONS = TIPI_DOCUMENTO.map((value) => ({ value, label: TIPO_DOCUMENTO_LABELS[value] }));
