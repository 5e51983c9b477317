import type { Knex } from 'knex';
import { z } from 'zod';
import { defineList, listParamsShape, runList, tenantScope } from '../../kit/list';

/**
 * The customer list (docs/lists.md): keyset pages over the tenant's indexes
 * (migration 20261204000100: one per sort and per equality filter), a capped count.
 */
export const customersList = defineList<{ tipo_soggetto: string; classe_rischio: string; stato: string; pep: boolean; paese_residenza: string }>({
  name: 'records.anagrafe',
  table: 'anagrafe',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'cod_anagrafe', type: 'text' }],
    denominazione: [{ column: 'denominazione', type: 'text' }, { column: 'cod_anagrafe', type: 'text' }],
  },
  defaultSort: '-created_at',
  filters: {
    tipo_soggetto: { apply: (qb, v) => qb.where('tipo_soggetto', v), sample: 'societa' },
    classe_rischio: { apply: (qb, v) => qb.where('classe_rischio', v), sample: 'alto' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'attivo' },
    pep: { apply: (qb, v) => qb.where('pep', v), sample: true },
    paese_residenza: { apply: (qb, v) => qb.where('paese_residenza', v), sample: 'IT' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('denominazione', like).orWhereILike('codice_fiscale', like)
      .orWhereILike('partita_iva', like).orWhereILike('cod_anagrafe', like)),
    sample: 'rossi',
  },
  limit: { default: 25, max: 200 },
});

const blank = z.literal('').transform(() => undefined);
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().or(blank);

export const customerListQuery = z.object({
  tipo_soggetto: oneOf(['persona_fisica', 'ditta_individuale', 'societa']),
  classe_rischio: oneOf(['basso', 'medio', 'medio_alto', 'alto']),
  stato: oneOf(['attivo', 'sospeso', 'cessato', 'eliminato']),
  pep: z.enum(['true', 'false']).transform((v) => v === 'true').optional().or(blank),
  paese_residenza: z.string().regex(/^[A-Z]{2}$/).optional().or(blank),
  q: z.string().trim().max(200).optional().transform((v) => v || undefined),
  ...listParamsShape(customersList),
});
export type CustomerListQuery = z.infer<typeof customerListQuery>;

export const listCustomers = (trx: Knex.Transaction, codAzienda: string, q: CustomerListQuery) =>
  runList<Record<string, unknown>>(trx, customersList, tenantScope(codAzienda), q);
