import { defineList } from '../../../kit/list';
import type { EsitoDocumento } from '../verifications.vocabulary';

/**
 * The document records list (/api/v1/documenti/records and /documenti). Indexes: documenti_tenant_created,
 * documenti_scadenza (sort by expiry), documenti_cod_documento, and the filters' own
 * (documenti_tenant_anagrafe_created, _tipo_created, _stato_created, documenti_tenant_esito_created); the search's
 * documenti_tenant_numero (migrations/2026120600904_document_records_numero.ts).
 */
export const documentRecordsList = defineList<{ cod_anagrafe: string; tipo: string; stato: string; esito_verifica: EsitoDocumento }>({
  name: 'verifications.documenti',
  table: 'documenti',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['id', 'cod_documento', 'versione', 'cod_anagrafe', 'tipo', 'numero', 'data_rilascio', 'data_scadenza', 'stato', 'esito_verifica',
    'nome_file', 'mime', 'dimensione', 'verificato_at', 'created_by', 'created_at', 'updated_at'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    data_scadenza: [{ column: 'data_scadenza', type: 'text', nullable: true }, { column: 'id', type: 'uuid' }],
    cod_documento: [{ column: 'cod_documento', type: 'text' }],
  },
  defaultSort: '-created_at',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'passaporto' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'scaduto' },
    esito_verifica: { apply: (qb, v) => qb.where('esito_verifica', v), sample: 'non_valido' },
  },
  // A code or a number, never a scan: DOC-... is the document's code, ANA-... the holder's, anything
  // else a document number as stored (upper case, no spaces), each an equality on an index.
  search: {
    apply: (qb, _like, term) => {
      const t = term.trim().toUpperCase();
      if (/^DOC-\d+$/.test(t)) qb.where('cod_documento', t);
      else if (/^ANA-[A-Z0-9._-]+$/.test(t)) qb.where('cod_anagrafe', t);
      else qb.where('numero', t.replace(/\s+/g, ''));
    },
    sample: 'DOC-000017',
  },
  limit: { default: 25, max: 200 },
});
