import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { addEdge, addNode, calculateUbo, requireKyb, type StructureActor } from './structure.commands';
import { structureData } from './structure.view';
import {
  calculateSchema, calculationResponse, createEdgeSchema, createNodeSchema, edgeResponse, nodeResponse, structureResponse,
} from './structure.schemas';
import { STRUCTURE_EDITORS } from './structure.roles';

const tag = 'Verifiche KYB: struttura societaria e titolari effettivi';
const BASE = '/api/v1/kyb/verifiche/:cod_verifica/struttura';

/**
 * The corporate structure of a KYB (docs/ubo.md): read it, add nodes and edges, compute the
 * beneficial owners. The verification must be a KYB of the caller's tenant (404 otherwise); a
 * closed one is not changed (409); every change is audited in its transaction.
 */
export const registerStructureRoutes: RegisterRoutes = (router, { deps }) => {
  const tx = <T>(ctx: { state: { user?: { username: string } } }, fn: (trx: Knex.Transaction, codAzienda: string) => Promise<T>) => {
    const codAzienda = tenantOf(ctx as never);
    return withTenant(deps.db, { codAzienda, actor: ctx.state.user!.username }, (trx) => fn(trx, codAzienda));
  };
  const actor = (ctx: { state: { user?: { cod_utente: string; username: string } } }): StructureActor => ({ id: ctx.state.user!.cod_utente, username: ctx.state.user!.username });

  router.api({
    method: 'GET', path: BASE, summary: 'La struttura societaria della verifica KYB: nodi, archi, ultimo calcolo dei titolari effettivi', tag,
    access: staff(STAFF_READ), response: structureResponse,
    handler: (ctx, { params }) => tx(ctx, async (trx, codAzienda) => structureData(trx, codAzienda, await requireKyb(trx, codAzienda, params.cod_verifica!))),
  });

  router.api({
    method: 'POST', path: `${BASE}/nodi`, summary: 'Aggiunge un soggetto alla struttura (persona fisica, società, trust, società quotata, ente pubblico)', tag,
    access: staff(STRUCTURE_EDITORS), body: createNodeSchema, response: nodeResponse, status: 201,
    handler: (ctx, { params, body }) => tx(ctx, async (trx, codAzienda) => addNode(trx, codAzienda, actor(ctx), await requireKyb(trx, codAzienda, params.cod_verifica!), body)),
  });

  router.api({
    method: 'POST', path: `${BASE}/archi`, summary: 'Aggiunge un legame tra due soggetti della struttura ("da" detiene, controlla o ricopre un ruolo in "a"); 409 se già registrato; 422 se le partecipazioni superano il 100%', tag,
    access: staff(STRUCTURE_EDITORS), body: createEdgeSchema, response: edgeResponse, status: 201,
    handler: (ctx, { params, body }) => tx(ctx, async (trx, codAzienda) => addEdge(trx, codAzienda, actor(ctx), await requireKyb(trx, codAzienda, params.cod_verifica!), body)),
  });

  router.api({
    method: 'POST', path: `${BASE}/calcola-ubo`, summary: 'Calcola i titolari effettivi (art. 20 d.lgs. 231/2007 e metodo moltiplicativo), li confronta con quelli dichiarati e segnala le difformità', tag,
    access: staff(STRUCTURE_EDITORS), body: calculateSchema, response: calculationResponse, status: 201,
    handler: (ctx, { params, body }) => tx(ctx, async (trx, codAzienda) => calculateUbo(trx, codAzienda, actor(ctx), await requireKyb(trx, codAzienda, params.cod_verifica!), body.soglia)),
  });
};
