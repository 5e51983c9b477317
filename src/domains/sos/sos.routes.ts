import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { SOS_ACCESS, SOS_FILERS } from './sos.access';
import { createFilingFromSos, sosFilingSchema } from './sos.filing';
import { sosMachine } from '../../../workflows/sos/sos.machine';
import {
  completeTransmissionSchema, createSosSchema, listSosQuery, sosAttachmentResponse, sosCommunicationResponse, sosCommunicationSchema,
  sosListResponse, sosTransitionSchema, sosWriteResponse,
} from './sos.schemas';
import { addSosAttachment, addSosCommunication, applySosTransition, createSos, listSos } from './sos.service';

export { SOS_ACCESS };
const tag = 'Segnalazioni SOS';
const sosFilingResponse = z.object({ filing_id: z.string(), stato: z.string(), titolo: z.string() });

const attachmentSchema = z.object({
  nome_file: z.string().trim().min(1, 'Indica il nome del file').max(200, 'Massimo 200 caratteri').regex(/^[^/\\]+$/, 'Nome di file non valido'),
  descrizione: z.string().trim().max(2_000, 'Massimo 2000 caratteri').default(''),
  mime: z.enum(['application/pdf', 'image/jpeg', 'image/png']).optional(),
  contenuto_base64: z.string().min(1, 'Campo obbligatorio').max(14_000_000, 'File troppo grande (massimo 10 MB)').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Base64 non valido'),
});

/** JSON API of suspicious-transaction reports: reads under the caller's principal, every state change through the workflow. */
export const registerSosRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/sos/reports', summary: 'Elenco delle segnalazioni visibili all\'utente', tag, access: staff(SOS_ACCESS), query: listSosQuery, response: sosListResponse,
    handler: (ctx, { query }) => listSos(deps, tenantOf(ctx), ctx.state.user!, query),
  });

  router.api({
    method: 'POST', path: '/api/sos/reports', summary: 'Crea una segnalazione (da alert, caso, astensione o a mano)', tag, access: staff(SOS_ACCESS), body: createSosSchema, response: sosWriteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const { sosId, view } = await createSos(deps, tenantOf(ctx), ctx.state.user!, body);
      ctx.set('Location', `/sos/${sosId}`);
      return view;
    },
  });

  router.api({
    method: 'PUT', path: '/api/sos/reports/:id/transition', summary: 'Transizione della segnalazione', tag, access: staff(SOS_ACCESS), body: sosTransitionSchema, response: sosWriteResponse,
    handler: (ctx, { body, params }) => applySosTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: body.action, ...(body.motivazione ? { reason: body.motivazione } : {}) }),
  });

  router.api({
    method: 'POST', path: '/api/sos/reports/:id/complete-transmission', summary: 'Registra la trasmissione alla UIF (numero di protocollo)', tag,
    access: staff(rolesFor(sosMachine, 'complete-transmission')), body: completeTransmissionSchema, response: sosWriteResponse,
    handler: (ctx, { body, params }) => applySosTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'complete-transmission', protocollo: body.protocollo }),
  });

  router.api({
    method: 'POST', path: '/api/sos/reports/:id/attachments', summary: 'Allega un documento alla segnalazione', tag, access: staff(SOS_ACCESS), body: attachmentSchema, response: sosAttachmentResponse, status: 201,
    handler: (ctx, { body, params }) => addSosAttachment(deps, tenantOf(ctx), ctx.state.user!, params.id!, {
      nome_file: body.nome_file, descrizione: body.descrizione, bytes: Buffer.from(body.contenuto_base64, 'base64'), ...(body.mime ? { mime: body.mime } : {}),
    }),
  });

  router.api({
    method: 'POST', path: '/api/sos/reports/:id/communications', summary: 'Registra una comunicazione con la UIF', tag, access: staff(rolesFor(sosMachine, 'evaluate')), body: sosCommunicationSchema, response: sosCommunicationResponse, status: 201,
    handler: (ctx, { body, params }) => addSosCommunication(deps, tenantOf(ctx), ctx.state.user!, params.id!, body),
  });

  router.api({
    method: 'POST', path: '/api/sos/reports/:id/filing', tag, access: staff(SOS_FILERS), body: sosFilingSchema, response: sosFilingResponse, status: 201,
    summary: 'Crea dal report trasmesso un filing goAML STR in bozza (riservato al delegato SOS e al responsabile), collegato alla segnalazione',
    handler: async (ctx, { body, params }) => {
      const made = await createFilingFromSos(deps, tenantOf(ctx), ctx.state.user!, params.id!, body);
      ctx.set('Location', `/filing/${made.filingId}`);
      return { filing_id: made.filingId, stato: made.view.stato, titolo: made.view.titolo };
    },
  });
};
