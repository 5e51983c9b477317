import type { Knex } from 'knex';
import { z } from 'zod';
import { listParamsShape, runList, tenantScope } from '../../kit/list';
import { customersList } from './records.lists';
import { CLASSI_RISCHIO, STATI_ANAGRAFE, TIPI_SOGGETTO } from './records.vocabulary';
import type { Customer } from './customer.model';

/**
 * The /anagrafe list page's query: the area's customer list (records.lists.ts, the same as
 * /api/anagrafe) with what a filter form sends, where an empty select means "all".
 */
const blank = z.literal('').transform(() => undefined);
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().or(blank);

export const customerListQuery = z.object({
  tipo: oneOf(TIPI_SOGGETTO),
  classe_rischio: oneOf(CLASSI_RISCHIO),
  stato: oneOf(STATI_ANAGRAFE),
  pep: z.enum(['true', 'false']).transform((v) => v === 'true').optional().or(blank),
  paese: z.string().regex(/^[A-Z]{2}$/).optional().or(blank),
  q: z.string().trim().max(200).optional().transform((v) => v || undefined),
  ...listParamsShape(customersList),
});
export type CustomerListQuery = z.infer<typeof customerListQuery>;

export const listCustomers = (trx: Knex.Transaction, codAzienda: string, q: CustomerListQuery) =>
  runList<Pick<Customer, 'cod_anagrafe' | 'denominazione' | 'tipo_soggetto' | 'codice_fiscale' | 'partita_iva' | 'codice_fiscale_estero' | 'pep' | 'classe_rischio' | 'stato' | 'created_at'>>(
    trx, customersList, tenantScope(codAzienda), q,
  );
