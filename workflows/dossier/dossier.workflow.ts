import {
  ApplicationFailure, condition, continueAsNew, ParentClosePolicy, proxyActivities, setHandler, startChild, uuid4,
} from '@temporalio/workflow';
import { STEP_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import { CEREMONY_TTL_MS, esignCompletedSignal, esignEndedSignal, esignWorkflowId, type EsignActivities, type EsignWorkflowInput } from '../esign/esign.contract';
import {
  createDossierUpdate, DOSSIER_NOT_FOUND, DOSSIER_RECORD_TYPE, DOSSIER_SUBJECT_UNKNOWN, dossierStateQuery, dossierTransitionUpdate, dossierWorkflowId,
  SIGNATURE_PENDING, type DossierActivities, type DossierProjection, type DossierTransitionArgs, type DossierWorkflowInput, type DossierWorkflowState,
} from './dossier.contract';
import { dossierMachine, type DossierStatus } from './dossier.machine';

const KNOWN = [DOSSIER_NOT_FOUND, DOSSIER_SUBJECT_UNKNOWN];
const acts = transitionProjections<DossierActivities>(KNOWN);
const esignActs = transitionProjections<EsignActivities>();
// Generation reads the customer's whole file and draws the PDF: more time than a projection.
const steps = proxyActivities<DossierActivities>({ ...STEP_ACTIVITY, retry: { ...STEP_ACTIVITY.retry, nonRetryableErrorTypes: KNOWN } });

const refuse = (type: string, message: string, details: Record<string, unknown> = {}) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, details: [details] });

/**
 * One durable workflow per customer dossier. The create update generates it (the PDF, its
 * SHA-256 and the signed manifest, written by one activity); sign starts the e-signature
 * ceremony as a child, whose signals say how it ended; complete-signing needs it signed.
 * No timers: the workflow waits for people until the dossier is archived.
 */
export async function dossierWorkflow(input: DossierWorkflowInput): Promise<DossierWorkflowState> {
  const state: DossierWorkflowState = input.state ?? { status: dossierMachine.initial, created: false, transitions: 0, ceremony: null };
  const wfId = dossierWorkflowId(input.codAzienda, input.dossierId);
  const p = recordProcess({ machine: dossierMachine, recordType: DOSSIER_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.dossierId, state });
  setHandler(dossierStateQuery, () => state);

  p.onCreate(createDossierUpdate, async (args) => ({
    state,
    record: await steps.generateDossier({ codAzienda: input.codAzienda, dossierId: input.dossierId, workflowId: wfId, actor: args.actor, data: args.data }),
  }), () => ({ state, record: null }));

  const projection = (args: DossierTransitionArgs, to: DossierStatus): DossierProjection => {
    const { actor, action, ...rest } = args;
    return { codAzienda: input.codAzienda, dossierId: input.dossierId, transitionId: uuid4(), actor, action, from: state.status, to, args: rest };
  };

  p.onTransition(dossierTransitionUpdate, async (args, to) => {
    const proj = projection(args, to);
    if (args.action === 'sign') {
      if (state.status === 'signing' && state.ceremony?.status !== 'ended') {
        throw refuse(SIGNATURE_PENDING, 'a signing ceremony is already under way', { ceremony_id: state.ceremony?.id ?? null });
      }
      const prepared = await acts.prepareDossierSigning(proj);
      const expiresAt = new Date(Date.now() + CEREMONY_TTL_MS).toISOString();
      const childId = esignWorkflowId(input.codAzienda, prepared.ceremonyId);
      // The ceremony's row first, so the signing link answers as soon as this update does.
      await esignActs.createEsignProjection({ codAzienda: input.codAzienda, ceremonyId: prepared.ceremonyId, workflowId: childId, actor: args.actor, data: prepared.create.data, expiresAt });
      const childInput: EsignWorkflowInput = { codAzienda: input.codAzienda, ceremonyId: prepared.ceremonyId, parentWorkflowId: wfId, expiresAt, create: prepared.create };
      await startChild('esignCeremonyWorkflow', { workflowId: childId, args: [childInput], parentClosePolicy: ParentClosePolicy.ABANDON });
      state.ceremony = { id: prepared.ceremonyId, status: 'active' };
      const record = await p.commit(to, () => acts.projectDossierTransition({ ...proj, args: { ...proj.args, ceremonyId: prepared.ceremonyId } }));
      return { state, record };
    }
    if (args.action === 'complete-signing' && state.ceremony?.status !== 'signed') {
      throw refuse(SIGNATURE_PENDING, 'the signing ceremony is not signed yet', { ceremony: state.ceremony });
    }
    return { state, record: await p.commit(to, () => acts.projectDossierTransition(proj)) };
  });

  const ceremonyEnded = (ceremonyId: string, status: 'signed' | 'ended') => {
    if (state.ceremony?.id === ceremonyId && state.ceremony.status === 'active') state.ceremony = { id: ceremonyId, status };
  };
  setHandler(esignCompletedSignal, (s) => ceremonyEnded(s.ceremonyId, 'signed'));
  setHandler(esignEndedSignal, (s) => ceremonyEnded(s.ceremonyId, 'ended'));

  await p.run(async (stop) => { await condition(stop); }, () => continueAsNew<typeof dossierWorkflow>({ ...input, state }));
  return state;
}
