import { defineList } from '../../kit/list';

/**
 * The document spine's list (GET /api/documents/spine, /documenti/spine). Indexes
 * (migrations/20261218000100_create_document_spine.ts): documenti_spine_created and _dimensione for
 * the sorts; _tipo, _anagrafe and _blocco for the filters, each followed by the default sort; the
 * search is an equality on documenti_spine_codice, _anagrafe or _hash. The retention filters compute
 * each row's date while reading the tenant's rows in the sort's order (no stored date to go stale).
 */
export const RETENTION = 'spine_conserva_fino(cod_azienda, cod_anagrafe, created_at)';

export const spineList = defineList<{ tipo: string; cod_anagrafe: string; blocco: 'si' | 'no'; conservazione: 'scaduta' | 'aperta' }>({
  name: 'spine.documenti',
  table: 'documenti_spine',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => ['id', 'cod_spine', 'tipo', 'sha256', 'nome_file', 'mime', 'dimensione', 'cod_anagrafe', 'record_tipo', 'record_id', 'record_codice',
    'descrizione', 'archivio', 'blocco_legale', 'blocco_motivo', 'created_by', 'created_at', db.raw(`${RETENTION} as conserva_fino`)],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    dimensione: [{ column: 'dimensione', type: 'integer' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'documento' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    blocco: { apply: (qb, v) => qb.where('blocco_legale', v === 'si'), sample: 'si' },
    conservazione: {
      apply: (qb, v) => (v === 'aperta' ? qb.whereRaw(`${RETENTION} is null`) : qb.whereRaw(`${RETENTION} <= current_date`)),
      sample: 'scaduta',
    },
  },
  // A code or a hash, never a scan: SPN-… the entry, ANA-… its owner, 64 hex digits the content.
  search: {
    apply: (qb, _like, term) => {
      const t = term.trim();
      if (/^SPN-\d+$/i.test(t)) qb.where('cod_spine', t.toUpperCase());
      else if (/^[0-9a-f]{64}$/i.test(t)) qb.where('sha256', t.toLowerCase());
      else qb.where('cod_anagrafe', t.toUpperCase());
    },
    sample: 'SPN-000017',
  },
  limit: { default: 25, max: 200 },
});
