import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ, type Role } from '../../kit/roles';
import {
  createCustomerSchema, createDocumentoSchema, createLegameSchema, createRapportoSchema, createUboSchema, customerAsOfResponse,
  customerDetailResponse, customerListResponse, customerReadQuery, customerWriteResponse, deleteCustomerSchema, documentiListResponse,
  documentoRecord, legameRecord, legamiListResponse, listCustomersQuery, listDocumentiQuery, listLegamiQuery, listRapportiQuery, listUboQuery,
  rapportiListResponse, rapportoWithRoles, uboListResponse, uboRecord, updateCustomerSchema,
} from './records.schemas';
import {
  createCustomerFromApi, createDocumentoFromApi, createLegameFromApi, createRapportoFromApi, createUboFromApi, customerFile, customerOnDate,
  deleteCustomerFromApi, listCustomers, listDocumenti, listLegami, listRapporti, listUbo, updateCustomerFromApi,
} from './records.service';

/** Who writes the registry: the operators and the compliance officer, and the tenant's administrator. */
export const RECORDS_WRITERS: Role[] = ['analyst', 'co', 'admin'];
/** Deleting a record (kept for the retention period) is the compliance officer's or the administrator's. */
export const RECORDS_DELETERS: Role[] = ['co', 'admin'];
const tag = 'Anagrafe';

/** The records JSON API: customers, relationships, links, beneficial owners and documents. */
export const registerRecordsRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/anagrafe', summary: 'Elenco dei soggetti (filtri: tipo, classe di rischio, stato, PEP, paese, testo)', tag,
    access: staff(STAFF_READ), query: listCustomersQuery, response: customerListResponse,
    handler: (ctx, { query }) => listCustomers(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/anagrafe', summary: 'Registra un soggetto (409 se l\'identificativo fiscale è già registrato)', tag,
    access: staff(RECORDS_WRITERS), body: createCustomerSchema, response: customerWriteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const saved = await createCustomerFromApi(deps, tenantOf(ctx), ctx.state.user!, body);
      ctx.set('Location', `/api/anagrafe/${saved.cod_anagrafe}`);
      return saved;
    },
  });

  router.api({
    method: 'GET', path: '/api/anagrafe/:cod_anagrafe', summary: 'Scheda del soggetto con rapporti, legami, titolari effettivi, documenti e versioni; con ?al=AAAA-MM-GG com\'era in quella data', tag,
    access: staff(STAFF_READ), query: customerReadQuery, response: z.union([customerDetailResponse, customerAsOfResponse]),
    handler: (ctx, { query, params }) => (query.al
      ? customerOnDate(deps, tenantOf(ctx), ctx.state.user!, params.cod_anagrafe!, query.al)
      : customerFile(deps, tenantOf(ctx), ctx.state.user!, params.cod_anagrafe!)),
  });

  router.api({
    method: 'PUT', path: '/api/anagrafe/:cod_anagrafe', summary: 'Modifica il soggetto (nuova versione; `versione` per il controllo di concorrenza)', tag,
    access: staff(RECORDS_WRITERS), body: updateCustomerSchema, response: customerWriteResponse,
    handler: (ctx, { body, params }) => updateCustomerFromApi(deps, tenantOf(ctx), ctx.state.user!, params.cod_anagrafe!, body),
  });

  router.api({
    method: 'POST', path: '/api/anagrafe/:cod_anagrafe/elimina', summary: 'Elimina il soggetto (dati conservati; rifiutato con rapporti aperti)', tag,
    access: staff(RECORDS_DELETERS), body: deleteCustomerSchema, response: customerWriteResponse,
    handler: (ctx, { body, params }) => deleteCustomerFromApi(deps, tenantOf(ctx), ctx.state.user!, params.cod_anagrafe!, body.motivo),
  });

  router.api({
    method: 'GET', path: '/api/rapporti', summary: 'Elenco dei rapporti (filtri: soggetto con un ruolo, stato, tipo)', tag,
    access: staff(STAFF_READ), query: listRapportiQuery, response: rapportiListResponse,
    handler: (ctx, { query }) => listRapporti(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/rapporti', summary: 'Apre un rapporto con i soggetti e i loro ruoli', tag,
    access: staff(RECORDS_WRITERS), body: createRapportoSchema, response: rapportoWithRoles, status: 201,
    handler: (ctx, { body }) => createRapportoFromApi(deps, tenantOf(ctx), ctx.state.user!, body),
  });

  router.api({
    method: 'GET', path: '/api/documenti', summary: 'Elenco dei documenti (filtri: soggetto, tipo, stato)', tag,
    access: staff(STAFF_READ), query: listDocumentiQuery, response: documentiListResponse,
    handler: (ctx, { query }) => listDocumenti(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/documenti', summary: 'Registra un documento del soggetto', tag,
    access: staff(RECORDS_WRITERS), body: createDocumentoSchema, response: documentoRecord, status: 201,
    handler: (ctx, { body }) => createDocumentoFromApi(deps, tenantOf(ctx), ctx.state.user!, body),
  });

  router.api({
    method: 'GET', path: '/api/legami', summary: 'Elenco dei legami tra soggetti (filtri: soggetto, da, a, tipo)', tag,
    access: staff(STAFF_READ), query: listLegamiQuery, response: legamiListResponse,
    handler: (ctx, { query }) => listLegami(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/legami', summary: 'Registra un legame tra due soggetti', tag,
    access: staff(RECORDS_WRITERS), body: createLegameSchema, response: legameRecord, status: 201,
    handler: (ctx, { body }) => createLegameFromApi(deps, tenantOf(ctx), ctx.state.user!, body),
  });

  router.api({
    method: 'GET', path: '/api/ubo', summary: 'Elenco dei titolari effettivi (filtri: società, titolare)', tag,
    access: staff(STAFF_READ), query: listUboQuery, response: uboListResponse,
    handler: (ctx, { query }) => listUbo(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/ubo', summary: 'Registra un titolare effettivo (un legame di tipo titolare effettivo)', tag,
    access: staff(RECORDS_WRITERS), body: createUboSchema, response: uboRecord, status: 201,
    handler: (ctx, { body }) => createUboFromApi(deps, tenantOf(ctx), ctx.state.user!, body),
  });
};
