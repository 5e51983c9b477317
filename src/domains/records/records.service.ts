import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import { notFound, ValidationError } from '../../http/errors';
import type { SessionUser } from '../../http/context';
import { logger } from '../../infra/logger';
import { runList, tenantScope } from '../../kit/list';
import { screenStoredSubject, syncRegistrySubject } from '../screening';
import { Customer } from './customer.model';
import { createDocumento } from './documents.commands';
import { createLegame } from './links.commands';
import {
  createCustomer, customerAsOf, customerJson, softDeleteCustomer, updateCustomer, type CustomerFields, type CustomerPatch,
} from './records.commands';
import { withIsoDates } from './records.dates';
import { customersList, documentsList, linksList, ownersList, relationshipsList } from './records.lists';
import type {
  CreateCustomerBody, createDocumentoSchema, createLegameSchema, createRapportoSchema, createUboSchema, listCustomersQuery, listDocumentiQuery,
  listLegamiQuery, listRapportiQuery, listUboQuery, UpdateCustomerBody,
} from './records.schemas';
import { createRapporto } from './relationships.commands';
import type { z } from 'zod';

/** What the records API does: tenant transactions around the commands and the lists. */

type Obj = Record<string, unknown>;

const tx = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

const datesOf = (cols: readonly string[]) => <T extends Obj>(page: { items: T[] }) => ({ ...page, items: page.items.map((r) => withIsoDates(r, cols)) });

export const listCustomers = (deps: Deps, codAzienda: string, user: SessionUser, q: z.infer<typeof listCustomersQuery>) =>
  tx(deps, codAzienda, user)((trx) => runList<Obj>(trx, customersList, tenantScope(codAzienda), q)).then(datesOf(['data_nascita']));

export const listRapporti = (deps: Deps, codAzienda: string, user: SessionUser, q: z.infer<typeof listRapportiQuery>) =>
  tx(deps, codAzienda, user)((trx) => runList<Obj>(trx, relationshipsList, tenantScope(codAzienda), q)).then(datesOf(['data_apertura', 'data_chiusura']));

export const listDocumenti = (deps: Deps, codAzienda: string, user: SessionUser, q: z.infer<typeof listDocumentiQuery>) =>
  tx(deps, codAzienda, user)((trx) => runList<Obj>(trx, documentsList, tenantScope(codAzienda), q)).then(datesOf(['data_rilascio', 'data_scadenza']));

export const listLegami = (deps: Deps, codAzienda: string, user: SessionUser, q: z.infer<typeof listLegamiQuery>) =>
  tx(deps, codAzienda, user)((trx) => runList<Obj>(trx, linksList, tenantScope(codAzienda), q)).then(datesOf(['dal', 'al']));

/** An owner link as /api/ubo shows it: the entity and its beneficial owner by name of role. */
const uboView = (l: Obj) => {
  const { cod_anagrafe_da, cod_anagrafe_a, tipo: _tipo, cod_azienda: _tenant, ...rest } = l;
  return { ...rest, cod_anagrafe: cod_anagrafe_da, cod_anagrafe_titolare: cod_anagrafe_a };
};

export const listUbo = async (deps: Deps, codAzienda: string, user: SessionUser, q: z.infer<typeof listUboQuery>) => {
  const page = datesOf(['dal', 'al'])(await tx(deps, codAzienda, user)((trx) => runList<Obj>(trx, ownersList, tenantScope(codAzienda), q)));
  return { ...page, items: page.items.map(uboView) };
};

/** The customer file: the record and its graph in one transaction (the relation mappings of Customer). */
export async function customerFile(deps: Deps, codAzienda: string, user: SessionUser, cod: string) {
  return tx(deps, codAzienda, user)(async (trx) => {
    const found = await Customer.of(trx).findById([codAzienda, cod]);
    if (!found) throw notFound('Soggetto', 'm');
    // One relation after the other: a transaction is one connection, which runs one query at a time.
    for (const relation of ['rapporti', 'legami_uscenti.a', 'legami_entranti.da', 'titolari.a', 'documenti', 'versioni']) {
      await found.$fetchGraph(relation, { transaction: trx });
    }
    const { rapporti = [], legami_uscenti = [], legami_entranti = [], titolari = [], documenti = [], versioni = [], ...record } = found.toJSON() as unknown as Customer & Obj;
    const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    return json({
      ...record,
      rapporti,
      legami: [
        ...legami_uscenti.map(({ a, ...l }) => ({ ...l, direzione: 'uscente' as const, soggetto: a })),
        ...legami_entranti.map(({ da, ...l }) => ({ ...l, direzione: 'entrante' as const, soggetto: da })),
      ],
      titolari_effettivi: titolari.map(({ a, ...l }) => ({ ...uboView(l as unknown as Obj), titolare: a })),
      documenti,
      versioni: versioni.map(({ versione, operazione, changed_at, changed_by, campi }) => ({ versione, operazione, changed_at, changed_by, campi })),
    });
  });
}

/** The record as it was at the end of `al` (Europe/Rome), or 404 when it did not exist yet (or is another tenant's). */
export async function customerOnDate(deps: Deps, codAzienda: string, user: SessionUser, cod: string, al: string) {
  const v = await tx(deps, codAzienda, user)((trx) => customerAsOf(trx, cod, al));
  if (!v) throw notFound('Soggetto', 'm');
  return JSON.parse(JSON.stringify({ al, versione: v.versione, changed_at: v.changed_at, changed_by: v.changed_by, record: v.snapshot })) as Obj;
}

export async function createCustomerFromApi(deps: Deps, codAzienda: string, user: SessionUser, body: CreateCustomerBody) {
  const saved = await tx(deps, codAzienda, user)((trx) => createCustomer(trx, codAzienda, user.username, body as CustomerFields));
  return customerJson(saved);
}

/** The subject as the screening lists see it: a person (a sole trader is one) or a company, by name, birth date and nationality. */
function screeningInput(c: Customer) {
  const json = customerJson(c) as Obj;
  return {
    cod_anagrafe: c.cod_anagrafe, tipo: c.tipo_soggetto === 'societa' ? 'company' as const : 'person' as const,
    nome: c.tipo_soggetto === 'societa' ? c.denominazione : [c.nome, c.cognome].filter(Boolean).join(' ') || c.denominazione,
    ...(json.data_nascita ? { data_nascita: json.data_nascita as string } : {}), ...(c.nazionalita ? { nazionalita: c.nazionalita } : {}),
  };
}

/**
 * Updates a record. When a field the lists match on changed (name, date of birth, nationality),
 * the subject's screening row is brought in line in the same transaction as the change, and the
 * subject is screened after the commit: a screening failure never loses the edit, and the row it
 * leaves is already the new one, which the next list import screens again anyway.
 */
export async function updateCustomerFromApi(deps: Deps, codAzienda: string, user: SessionUser, cod: string, body: UpdateCustomerBody) {
  const { versione, ...patch } = body;
  const result = await tx(deps, codAzienda, user)(async (trx) => {
    const r = await updateCustomer(trx, codAzienda, user.username, cod, patch as CustomerPatch, versione);
    if (r.rescreen) await syncRegistrySubject(trx, codAzienda, user.username, screeningInput(r.customer));
    return r;
  });
  let rescreen: { eseguito: boolean; corrispondenze_nuove: number } | null = null;
  if (result.rescreen) {
    try {
      const s = await screenStoredSubject(deps.db, codAzienda, user.username, cod);
      rescreen = { eseguito: true, corrispondenze_nuove: s?.matches_created.length ?? 0 };
    } catch (err) {
      logger.error({ err, cod_anagrafe: cod }, 'records: re-screening after a change failed (the change is saved)');
      rescreen = { eseguito: false, corrispondenze_nuove: 0 };
    }
  }
  return { ...customerJson(result.customer), campi_modificati: result.changed, rescreen };
}

export async function deleteCustomerFromApi(deps: Deps, codAzienda: string, user: SessionUser, cod: string, motivo: string) {
  return customerJson(await tx(deps, codAzienda, user)((trx) => softDeleteCustomer(trx, codAzienda, user.username, cod, motivo)));
}

const plain = <T>(v: T) => JSON.parse(JSON.stringify(v)) as Obj;

export const createRapportoFromApi = (deps: Deps, codAzienda: string, user: SessionUser, body: z.infer<typeof createRapportoSchema>) =>
  tx(deps, codAzienda, user)(async (trx) => plain(await createRapporto(trx, codAzienda, user.username, {
    ...body, soggetti: body.soggetti as { cod_anagrafe: string; ruolo: 'cointestatario' }[] | undefined,
  })));

export const createLegameFromApi = (deps: Deps, codAzienda: string, user: SessionUser, body: z.infer<typeof createLegameSchema>) =>
  tx(deps, codAzienda, user)(async (trx) => plain(await createLegame(trx, codAzienda, user.username, body)));

/** /api/ubo names the link's ends as the entity (cod_anagrafe) and its owner (cod_anagrafe_titolare): so do its 422s. */
const UBO_PATHS: Record<string, string> = { cod_anagrafe_da: 'cod_anagrafe', cod_anagrafe_a: 'cod_anagrafe_titolare' };

export const createUboFromApi = (deps: Deps, codAzienda: string, user: SessionUser, body: z.infer<typeof createUboSchema>) =>
  tx(deps, codAzienda, user)(async (trx) => {
    try {
      return uboView(plain(await createLegame(trx, codAzienda, user.username, {
        cod_anagrafe_da: body.cod_anagrafe, cod_anagrafe_a: body.cod_anagrafe_titolare, tipo: 'titolare_effettivo', percentuale: body.percentuale,
        tipo_controllo: body.tipo_controllo, dal: body.dal, al: body.al, fonte: body.fonte, note: body.note,
      })));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const errors = err.errors.map((e) => ({ ...e, path: UBO_PATHS[e.path] ?? e.path }));
      throw new ValidationError(errors, errors[0]?.message);
    }
  });

export const createDocumentoFromApi = (deps: Deps, codAzienda: string, user: SessionUser, body: z.infer<typeof createDocumentoSchema>) =>
  tx(deps, codAzienda, user)(async (trx) => plain(await createDocumento(trx, codAzienda, user.username, body)));
