import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound, ValidationError } from '../../../http/errors';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { rolesFor } from '../../../kit/process';
import { newRecordId } from '../../../kit/request-context';
import { STAFF_READ } from '../../../kit/roles';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { verificationMachine, type VerificationUserAction } from '../../../../workflows/verification/verification.machine';
import type { TipoVerifica } from '../verifications.vocabulary';
import { CHECK_EDITORS, createCheck, updateCheck, updateProfile } from './verification.checks';
import { openVerification, transitionVerification } from './verification.commands';
import { getVerification, listChecks, listVerifications, type VerificationView } from './verification.repo';
import {
  checkListResponse, checkSchema, createCheckSchema, createKybSchema, createKycSchema, listVerificationsQuery, statusSchema, transitionSchema,
  updateCheckSchema, verificationListResponse, verificationViewSchema,
} from './verification.schemas';
import { kybProfileSchema, type KybProfile } from './verification.profile';

const TAGS: Record<TipoVerifica, string> = { kyc: 'Verifiche KYC', kyb: 'Verifiche KYB' };
const LABEL: Record<TipoVerifica, string> = { kyc: 'KYC', kyb: 'KYB' };
/** The state asked for through PUT .../stato, as the machine's action. */
const ACTION_FOR: Record<'in_progress' | 'approved' | 'rejected', VerificationUserAction> = { in_progress: 'start', approved: 'approve', rejected: 'reject' };
/** Who opens a verification: whoever may take one in hand. */
const OPENERS = rolesFor(verificationMachine, 'start');
const MOVERS = rolesFor(verificationMachine, 'start', 'approve', 'reject');

/** The view as the API answers it: with the workflow behind it. */
export const verificationApiView = (deps: Pick<Deps, 'temporal'>, v: VerificationView) => ({ ...v, workflow: { id: v.workflow_id, url: deps.temporal.webUiLink(v.workflow_id) } });

/**
 * KYC and KYB verifications (docs/verifications.md): /api/v1/kyc/verifiche*, /api/v1/kyb/verifiche*
 * (the structure routes are part ubo's) and the admin transition routes. Reads from PostgreSQL;
 * every state change through the verification's workflow; checks and profile in a transaction.
 * Another tenant's verification, or a code of the other kind, is not found.
 */
export const registerVerificationRoutes: RegisterRoutes = (router, { deps }) => {
  const read = <T>(ctx: { state: { user?: { username: string } } }, codAzienda: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(deps.db, { codAzienda, actor: ctx.state.user!.username }, fn);
  const requireView = async (ctx: Parameters<typeof read>[0], codAzienda: string, tipo: TipoVerifica, cod: string, actor: MachineActor) => {
    const v = await read(ctx, codAzienda, (trx) => getVerification(trx, codAzienda, tipo, cod, actor));
    if (!v) throw notFound('Verifica');
    return v;
  };

  /** Document codes (DOC-000001) or ids of this tenant, as ids; an unknown one names the field. */
  const documentIds = (ctx: Parameters<typeof read>[0], codAzienda: string, refs: string[] | undefined) => read(ctx, codAzienda, async (trx) => {
    const ids: string[] = [];
    for (const [i, ref] of (refs ?? []).entries()) {
      const byId = isUuid(ref);
      const d = await trx('documenti').where({ cod_azienda: codAzienda }).where(byId ? { id: ref } : { cod_documento: String(ref).toUpperCase() }).first('id');
      if (!d) throw new ValidationError([{ path: `documenti.${i}`, message: `Documento ${ref} non trovato` }]);
      ids.push(d.id as string);
    }
    return ids;
  });

  for (const tipo of ['kyc', 'kyb'] as const) {
    const tag = TAGS[tipo];
    const base = `/api/v1/${tipo}/verifiche`;

    router.api({
      method: 'GET', path: base, summary: `Elenco delle verifiche ${LABEL[tipo]} (filtri: stato, origine, cliente, testo)`, tag, access: staff(STAFF_READ),
      query: listVerificationsQuery, response: verificationListResponse,
      handler: (ctx, { query }) => read(ctx, tenantOf(ctx), (trx) => listVerifications(trx, tenantOf(ctx), tipo, query)),
    });

    router.api({
      method: 'POST', path: base, summary: `Apre una verifica ${LABEL[tipo]} per un cliente (dati dichiarati, documenti${tipo === 'kyb' ? ', profilo societario; i controlli standard' : ''})`, tag,
      access: staff(OPENERS), body: tipo === 'kyb' ? createKybSchema : createKycSchema, response: verificationViewSchema, status: 201,
      handler: async (ctx, { body }) => {
        const actor = staffActor(ctx.state.user!);
        const codAzienda = tenantOf(ctx);
        const b = body as { cod_anagrafe: string; dati_dichiarati?: Record<string, unknown>; documenti?: string[]; profilo?: KybProfile };
        const v = await openVerification(deps, {
          codAzienda, actor, tipo, codAnagrafe: b.cod_anagrafe, origine: 'manuale', datiDichiarati: b.dati_dichiarati ?? {},
          documentiIds: await documentIds(ctx, codAzienda, b.documenti), profilo: b.profilo ?? null, verificaId: newRecordId(),
        });
        ctx.set('Location', `${base}/${v.cod_verifica}`);
        return verificationApiView(deps, v);
      },
    });

    router.api({
      method: 'GET', path: `${base}/:cod_verifica`, summary: `Dettaglio di una verifica ${LABEL[tipo]} (documenti${tipo === 'kyb' ? ', controlli' : ''}, azioni consentite)`, tag,
      access: staff(STAFF_READ), response: verificationViewSchema,
      handler: async (ctx, { params }) => verificationApiView(deps, await requireView(ctx, tenantOf(ctx), tipo, params.cod_verifica!, staffActor(ctx.state.user!))),
    });

    router.api({
      method: 'PUT', path: `${base}/:cod_verifica/stato`, summary: `Cambia lo stato di una verifica ${LABEL[tipo]} (in_progress, approved, rejected con motivo)`, tag,
      access: staff(MOVERS), body: statusSchema, response: verificationViewSchema,
      handler: async (ctx, { body, params }) => {
        const v = await transitionVerification(deps, {
          codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), tipo, codVerifica: params.cod_verifica!, action: ACTION_FOR[body.stato], motivo: body.motivo ?? null,
        });
        return verificationApiView(deps, v);
      },
    });

    router.api({
      method: 'POST', path: `/api/v1/admin/${tipo}/:cod_verifica/transizione`, summary: `Esegue un'azione sulla verifica ${LABEL[tipo]} (start, approve, reject con motivo)`, tag,
      access: staff(MOVERS), body: transitionSchema, response: verificationViewSchema,
      handler: async (ctx, { body, params }) => {
        const v = await transitionVerification(deps, {
          codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), tipo, codVerifica: params.cod_verifica!, action: body.azione, motivo: body.motivo ?? null,
        });
        return verificationApiView(deps, v);
      },
    });
  }

  const kyb = '/api/v1/kyb/verifiche/:cod_verifica';
  const tag = TAGS.kyb;

  router.api({
    method: 'GET', path: `${kyb}/checks`, summary: 'I controlli di una verifica KYB', tag, access: staff(STAFF_READ), response: checkListResponse,
    handler: async (ctx, { params }) => {
      const v = await requireView(ctx, tenantOf(ctx), 'kyb', params.cod_verifica!, staffActor(ctx.state.user!));
      return { items: await read(ctx, tenantOf(ctx), (trx) => listChecks(trx, v.id)) };
    },
  });

  router.api({
    method: 'POST', path: `${kyb}/checks`, summary: 'Aggiunge un controllo alla verifica KYB (uno per tipo; "altro" con descrizione)', tag,
    access: staff([...CHECK_EDITORS]), body: createCheckSchema, response: checkSchema, status: 201,
    handler: async (ctx, { body, params }) => createCheck(deps, {
      codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), tipo: 'kyb', codVerifica: params.cod_verifica!, tipoCheck: body.tipo, descrizione: body.descrizione ?? null,
    }),
  });

  router.api({
    method: 'PUT', path: `${kyb}/checks/:cod_check`, summary: 'Registra l\'esito di un controllo KYB (la deroga solo dal responsabile antiriciclaggio, con motivo)', tag,
    access: staff([...CHECK_EDITORS]), body: updateCheckSchema, response: checkSchema,
    handler: async (ctx, { body, params }) => updateCheck(deps, {
      codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), tipo: 'kyb', codVerifica: params.cod_verifica!, codCheck: params.cod_check!,
      stato: body.stato, esitoNota: body.esito_nota ?? null, evidenze: body.evidenze, motivoDeroga: body.motivo_deroga ?? null,
    }),
  });

  router.api({
    method: 'PUT', path: `${kyb}/profilo`, summary: 'Aggiorna il profilo societario della verifica KYB (forma giuridica, REA, ATECO, costituzione, sede, capitale)', tag,
    access: staff([...CHECK_EDITORS]), body: kybProfileSchema, response: verificationViewSchema,
    handler: async (ctx, { body, params }) => {
      const actor = staffActor(ctx.state.user!);
      await updateProfile(deps, { codAzienda: tenantOf(ctx), actor, tipo: 'kyb', codVerifica: params.cod_verifica!, profilo: body });
      return verificationApiView(deps, await requireView(ctx, tenantOf(ctx), 'kyb', params.cod_verifica!, actor));
    },
  });
};
