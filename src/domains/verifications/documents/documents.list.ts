import { defineList } from '../../../kit/list';
import type { EsitoDocumento } from '../verifications.vocabulary';

/**
 * The document records list (/api/v1/documenti/records and /documenti). Indexes: documenti_tenant_created,
 * documenti_scadenza (sort by expiry), documenti_cod_documento, and the filters' own
 * (documenti_tenant_anagrafe_created, _tipo_created, _stato_created, documenti_tenant_esito_created).
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
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_documento', like).orWhereILike('numero', like).orWhereILike('cod_anagrafe', like)),
    sample: 'DOC-0001',
  },
  limit: { default: 25, max: 200 },
});
