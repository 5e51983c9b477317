import multer from 'multer';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import { type ApiCtx, type ApiRouteDef } from '../../http/api-route';
import { HttpError, invalidTransition, ValidationError, type FieldError } from '../../http/errors';
import { redirectWithFlash, render } from '../../http/render';
import type { DraftSection } from '../../../workflows/onboarding/onboarding.contract';
import { EDITABLE_STATES, onboardingMachine } from '../../../workflows/onboarding/onboarding.machine';
import { allowedActions } from '../../../workflows/lib/machine';
import type { RegisterRoutes } from '../../kit/area';
import {
  anagrafeBody, caseResponse as caseResponseSchema, cddAnswersBody, cddAnswersResponse, cddSchemaQuery, countriesBody, cddSchemaResponse, signaturePendingResponse,
  documentResponse, draftPatchBody, magicLinkBody, magicLinkResponse, requiredDocsResponse, resumeQuery, resumeResponse, signingResponse, uboBody,
  uploadForm, validationResponse, walletResponse,
} from './onboarding-api.schemas';
import { cddAnswersSchema, cddSchemaFor, CDD_SCHEMA_VERSION, isKnownCddVersion, UNKNOWN_CDD_VERSION_MESSAGE } from './onboarding.cdd-schema';
import { PUBLIC_LINK_ANSWER, requestLinkFromForm } from './onboarding.links';
import { brandOf } from './onboarding.page-context';
import {
  ANAGRAFE_SCHEMAS, countriesSchema, travelRuleDeclarationSchema, uboListSchema, walletInputSchema,
} from './onboarding.schemas';
import {
  addWallet, caseDocuments, caseResponse, caseWallets, completeSubmission, completeTravelRule, deleteDocument, eraseCase, issueMagicLink, loadCustomerCase,
  reloadCase, requiredDocsView, resetTravelRule, resumeWithToken, saveSection, signingPath, signTravelRule, submitCase, uploadDocument, walletView,
  type CaseRow,
} from './onboarding.service';
import { validateApplication } from './onboarding.validation';
import { customerActor } from './onboarding.commands';
import { PUBLIC, APPLICANT } from '../../kit/access';

const tag = 'Onboarding (cliente)';
const BASE = '/api/v1/onboarding/case/:id';
const issuesOf = (err: z.ZodError, prefix = ''): FieldError[] => err.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'), message: i.message }));

/** The draft is stored as typed; a section that is still incomplete is then a 422 naming the fields (saved: true). */
function incomplete(errors: FieldError[]) {
  const e = new ValidationError(errors, 'Dati salvati come bozza, ma incompleti o non validi: correggi i campi indicati');
  Object.assign(e.extra, { saved: true });
  return e;
}

const LINK_PROBLEMS = {
  expired: { status: 410, code: 'LINK_EXPIRED', detail: 'Il link è scaduto: chiedine uno nuovo' },
  used: { status: 410, code: 'LINK_USED', detail: 'Il link è già stato usato: ogni link vale una sola volta, chiedine uno nuovo' },
  invalid: { status: 400, code: 'LINK_INVALID', detail: 'Il link non è valido: controlla di averlo copiato per intero o chiedine uno nuovo' },
} as const;

/**
 * The upload's parser: in memory, one file, a few small fields; the size limit is the installation's.
 * Browsers send the file's name as raw UTF-8 (multer's default reads it as Latin-1: «società» became mojibake).
 */
function parseUpload(deps: Deps, ctx: ApiCtx): Promise<{ file?: Express.Multer.File; fields: Record<string, unknown> }> {
  const max = deps.config.uploadMaxBytes;
  const mw = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: max, files: 1, fields: 5, fieldSize: 1024, parts: 6 } }).single('file');
  const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File; body?: Record<string, unknown> };
  return new Promise((resolve, reject) => {
    mw(req as never, ctx.res as never, (err: unknown) => {
      if (!err) return resolve({ file: req.file, fields: req.body ?? {} });
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') {
          const mb = Math.round((max / 1024 / 1024) * 10) / 10;
          return reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'File troppo grande', `Il file supera il limite di ${mb} MB`, { errors: [{ path: 'file', message: `Il file supera il limite di ${mb} MB` }], max_bytes: max }));
        }
        const field = err.code === 'LIMIT_FILE_COUNT' || err.code === 'LIMIT_UNEXPECTED_FILE' ? 'file' : err.field ?? '_form';
        return reject(new ValidationError([{ path: field, message: field === 'file' ? 'Carica un solo file, nel campo "file"' : 'Troppi campi o campi troppo lunghi' }]));
      }
      return reject(new HttpError(400, 'BAD_REQUEST', 'Richiesta non valida', 'Modulo di caricamento non leggibile'));
    });
  });
}

/**
 * The applicant's case-bound API. Every route needs the applicant's session for that case
 * (another case or tenant: 404); writes go through the case's workflow.
 */
export const registerOnboardingRoutes: RegisterRoutes = (router, { deps, views }) => {
  const load = (ctx: ApiCtx, params: Record<string, string>) => loadCustomerCase(deps, ctx, params.id!);
  const answer = (row: CaseRow) => caseResponse(deps, row);
  const route = <B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(def: ApiRouteDef<B, Q>) => router.api(def);

  route({
    method: 'GET', path: BASE, summary: 'La pratica del cliente (sessione del cliente)', tag, access: APPLICANT, response: caseResponseSchema,
    handler: async (ctx, { params }) => answer(await load(ctx, params)),
  });

  const sectionRoute = (path: string, section: DraftSection, body: z.ZodType, summary: string, strict: (row: CaseRow, data: Record<string, unknown>) => FieldError[]) => route({
    method: 'POST', path: `${BASE}/${path}`, tag, access: APPLICANT, body, response: caseResponseSchema,
    summary: `${summary}. Salva sempre quanto inviato come bozza; se la sezione è incompleta risponde 422 con gli errori per campo e saved: true`,
    handler: async (ctx, { params, body: data }) => {
      const row = await saveSection(deps, await load(ctx, params), section, data);
      const errors = strict(row, data as Record<string, unknown>);
      if (errors.length) throw incomplete(errors);
      return answer(row);
    },
  });

  sectionRoute('anagrafe', 'anagrafe', anagrafeBody, 'Salva i dati del cliente', (row, data) => {
    if (!row.tipo_soggetto) return [{ path: 'subject_type', message: 'Scegli prima il tipo di cliente' }];
    const r = ANAGRAFE_SCHEMAS[row.tipo_soggetto].safeParse(data);
    return r.success ? [] : issuesOf(r.error);
  });
  sectionRoute('ubo', 'ubo', uboBody, 'Salva i titolari effettivi', (_row, data) => {
    const r = uboListSchema.safeParse(data);
    return r.success ? [] : issuesOf(r.error);
  });
  sectionRoute('countries', 'countries', countriesBody, 'Salva i paesi in cui opera il cliente', (_row, data) => {
    const r = countriesSchema.safeParse(data);
    return r.success ? [] : issuesOf(r.error);
  });

  route({
    method: 'GET', path: `${BASE}/cdd/answers`, summary: 'Le risposte al questionario di adeguata verifica', tag, access: APPLICANT, response: cddAnswersResponse,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      return { versione: row.cdd_schema_version, risposte: row.cdd_answers ?? {} };
    },
  });

  route({
    method: 'POST', path: `${BASE}/cdd/answers`, tag, access: APPLICANT, body: cddAnswersBody, response: caseResponseSchema,
    summary: 'Salva le risposte al questionario. Salva sempre quanto inviato come bozza (tranne una versione sconosciuta: 422, nulla salvato); se incomplete risponde 422 con saved: true',
    handler: async (ctx, { params, body }) => {
      if (!isKnownCddVersion(body.versione)) throw new ValidationError([{ path: 'versione', message: UNKNOWN_CDD_VERSION_MESSAGE }]);
      const row = await saveSection(deps, await load(ctx, params), 'cdd_answers', body);
      const r = cddAnswersSchema(body.versione, row.tipo_soggetto).safeParse(body);
      if (!r.success) throw incomplete(issuesOf(r.error));
      return answer(row);
    },
  });

  route({
    method: 'GET', path: `${BASE}/cdd/schema`, summary: 'Le domande del questionario per il tipo di cliente (versione delle risposte date, o ?versione=, o la corrente)', tag, access: APPLICANT, query: cddSchemaQuery, response: cddSchemaResponse,
    handler: async (ctx, { params, query }) => {
      const row = await load(ctx, params);
      const v = query.versione ?? (isKnownCddVersion(row.cdd_schema_version) ? row.cdd_schema_version : CDD_SCHEMA_VERSION);
      if (!isKnownCddVersion(v)) throw new ValidationError([{ path: 'versione', message: UNKNOWN_CDD_VERSION_MESSAGE }]);
      return { ...cddSchemaFor(row.tipo_soggetto, v), corrente: CDD_SCHEMA_VERSION };
    },
  });

  route({
    method: 'PATCH', path: `${BASE}/draft`, summary: 'Salva come bozza una o più sezioni ({subject_type, anagrafe, ubo, cdd_answers, countries}), senza controllarne la completezza', tag, access: APPLICANT, body: draftPatchBody, response: caseResponseSchema,
    handler: async (ctx, { params, body }) => {
      let row = await load(ctx, params);
      if (body.cdd_answers?.versione !== undefined && !isKnownCddVersion(body.cdd_answers.versione)) {
        throw new ValidationError([{ path: 'cdd_answers.versione', message: UNKNOWN_CDD_VERSION_MESSAGE }]);
      }
      if (body.subject_type !== undefined) row = await saveSection(deps, row, 'subject_type', { subject_type: body.subject_type });
      if (body.anagrafe !== undefined) row = await saveSection(deps, row, 'anagrafe', body.anagrafe);
      if (body.ubo !== undefined) row = await saveSection(deps, row, 'ubo', body.ubo);
      if (body.cdd_answers !== undefined) {
        row = await saveSection(deps, row, 'cdd_answers', { versione: body.cdd_answers.versione ?? row.cdd_schema_version ?? CDD_SCHEMA_VERSION, risposte: body.cdd_answers.risposte });
      }
      if (body.countries !== undefined) row = await saveSection(deps, row, 'countries', body.countries);
      return answer(row);
    },
  });

  route({
    method: 'GET', path: `${BASE}/required-docs`, summary: 'I documenti richiesti per il tipo di cliente e i titolari, con quelli già caricati', tag, access: APPLICANT, response: requiredDocsResponse,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      return { items: requiredDocsView(row, await caseDocuments(deps, row)) };
    },
  });

  route({
    method: 'POST', path: `${BASE}/documents`, tag, access: APPLICANT, status: 201, response: documentResponse, multipart: true,
    body: uploadForm,
    summary: 'Carica un documento (multipart/form-data: file, tipo, riferimento = "soggetto" o id del titolare). Tipo letto dal contenuto: PDF, JPEG o PNG; 413 oltre il limite del file, o DOCUMENTS_TOO_LARGE oltre il totale della pratica (onboarding.max_documents_mb); 422 TOO_MANY_DOCUMENTS oltre il numero di documenti della pratica (onboarding.max_documents); 415 formato non ammesso; 422 file etichettato come un altro tipo. Modulo HTML: ?_csrf=, client API: X-CSRF-Token',
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      // Before reading the bytes: a case that can no longer change never gets a file stored.
      if (!EDITABLE_STATES.includes(row.stato)) throw invalidTransition(row.stato, 'edit', allowedActions(onboardingMachine, row.stato, customerActor(row.id)));
      const { file, fields } = await parseUpload(deps, ctx);
      if (!file) throw new ValidationError([{ path: 'file', message: 'Scegli un file da caricare (campo "file")' }]);
      const r = await uploadDocument(deps, row, { bytes: file.buffer, filename: file.originalname, declaredMime: file.mimetype, tipo: fields.tipo, riferimento: fields.riferimento });
      if (!r.ok) {
        if (r.status === 415) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Formato non ammesso', r.errors[0]!.message, { errors: r.errors });
        if (r.code) throw new HttpError(r.status, r.code, r.status === 413 ? 'Documenti troppo grandi' : 'Troppi documenti', r.errors[0]!.message, { errors: r.errors, ...r.extra });
        throw new ValidationError(r.errors, r.errors.find((e) => e.path === 'file')?.message);
      }
      ctx.set('Location', `${BASE.replace(':id', row.id)}/documents/${r.document.id}`);
      return { ...r.document, created_at: new Date().toISOString() };
    },
  });

  route({
    method: 'DELETE', path: `${BASE}/documents/:docId`, summary: 'Elimina un documento caricato', tag, access: APPLICANT, response: caseResponseSchema,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      await deleteDocument(deps, row, params.docId!);
      return answer(await reloadCase(deps, row));
    },
  });

  route({
    method: 'POST', path: `${BASE}/wallets`, tag, access: APPLICANT, status: 201, body: walletInputSchema, response: walletResponse,
    summary: 'Aggiunge un wallet. Con prova firma_messaggio il messaggio deve essere «Confermo di controllare l\'indirizzo <indirizzo> sulla rete <rete> per la pratica di adeguata verifica <id> presso <cod_azienda>.» (altrimenti 422 su prova.messaggio, con il testo) e la firma è verificata (ETH/ERC20 personal_sign, BTC firma di messaggio): se non corrisponde 422 su prova.firma; reti non verificabili: verificata null. 422 su travel_rule se la dichiarazione sui wallet è già in firma o firmata',
    handler: async (ctx, { params, body }) => walletView(await addWallet(deps, await load(ctx, params), body)),
  });

  route({
    method: 'POST', path: `${BASE}/travel-rule`, summary: 'Firma la dichiarazione sui wallet (travel rule): avvia la cerimonia di firma e ne restituisce il percorso', tag, access: APPLICANT, status: 201, body: travelRuleDeclarationSchema, response: signingResponse,
    handler: async (ctx, { params, body }) => signTravelRule(deps, await load(ctx, params), body),
  });

  route({
    method: 'DELETE', path: `${BASE}/travel-rule`, summary: 'Annulla la dichiarazione travel rule per ripeterla', tag, access: APPLICANT, response: caseResponseSchema,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      await resetTravelRule(deps, row);
      return answer(await reloadCase(deps, row));
    },
  });

  route({
    method: 'POST', path: `${BASE}/travel-rule/complete`, summary: 'Registra la dichiarazione travel rule firmata (409 SIGNATURE_PENDING con il percorso di firma se non ancora firmata)', tag, access: APPLICANT, response: caseResponseSchema,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      try {
        await completeTravelRule(deps, row);
      } catch (err) {
        const id = err instanceof HttpError && err.code === 'SIGNATURE_PENDING' ? err.extra.ceremony_id : undefined;
        if (typeof id === 'string') Object.assign((err as HttpError).extra, { signing_path: signingPath(deps, id) });
        throw err;
      }
      return answer(await reloadCase(deps, row));
    },
  });

  route({
    method: 'GET', path: `${BASE}/validation`, summary: 'Completezza della pratica: i campi da correggere prima dell\'invio, con il passo del percorso', tag, access: APPLICANT, response: validationResponse,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      const [docs, wallets] = await Promise.all([caseDocuments(deps, row), caseWallets(deps, row)]);
      return validateApplication({
        tipo_soggetto: row.tipo_soggetto, anagrafe: row.anagrafe, ubo: row.ubo, cdd_answers: row.cdd_answers, cdd_schema_version: row.cdd_schema_version,
        countries: row.countries, travel_rule: row.travel_rule as { stato?: string }, documents: docs,
        wallets: wallets.map((w) => ({ id: w.id, tipo: w.tipo, volume_annuo_eur: w.volume_annuo_eur, prova: w.prova as never })),
      });
    },
  });

  route({
    method: 'POST', path: `${BASE}/submit`, summary: 'Invia la pratica: 422 con le issues se incompleta; poi la firma delle dichiarazioni (dichiarazioni.signing_path)', tag, access: APPLICANT, response: caseResponseSchema,
    handler: async (ctx, { params }) => {
      const row = await load(ctx, params);
      await submitCase(deps, row);
      return answer(await reloadCase(deps, row));
    },
  });

  route({
    method: 'POST', path: `${BASE}/complete-submission`, tag, access: APPLICANT, response: caseResponseSchema, otherResponses: { 202: signaturePendingResponse },
    summary: 'Completa l\'invio: 200 con la pratica quando le dichiarazioni sono firmate; 202 con { stato: submitted, firma: { ceremony_id, signing_path } } finché la firma manca (anche dopo una cerimonia scaduta: ne viene avviata una nuova)',
    handler: async (ctx, { params }) => {
      const r = await completeSubmission(deps, await load(ctx, params));
      if (r.done) return answer(r.row);
      ctx.status = 202;
      ctx.body = { stato: 'submitted', firma: r.firma };
      return undefined;
    },
  });

  route({
    method: 'DELETE', path: `${BASE}/erase`, summary: 'Cancella la pratica e i suoi dati (GDPR art. 17) finché non è stata inviata; dopo l\'invio 409 AML_RETENTION (conservazione per 10 anni, art. 31 d.lgs. 231/2007)', tag, access: APPLICANT, status: 204,
    handler: async (ctx, { params }) => {
      await eraseCase(deps, ctx, await load(ctx, params));
      return undefined;
    },
  });

  route({
    method: 'GET', path: '/api/v1/onboarding/resume', tag, access: PUBLIC, query: resumeQuery, response: resumeResponse,
    summary: 'Riprende una pratica con il link ricevuto (?token=, monouso). Browser: 303 verso la pratica o pagina di errore; JSON: { case_id, stato } o 410 LINK_EXPIRED / LINK_USED, 400 LINK_INVALID',
    handler: async (ctx, { query }) => {
      const r = await resumeWithToken(deps, ctx, query.token);
      const html = ctx.accepts('json', 'html') === 'html';
      if (r.ok) {
        if (!html) return { case_id: r.caseId, stato: r.stato };
        ctx.redirect('/onboarding/stato');
        ctx.status = 303;
        return undefined;
      }
      const p = LINK_PROBLEMS[r.reason];
      if (!html) throw new HttpError(p.status, p.code, 'Link non utilizzabile', p.detail);
      ctx.set('Cache-Control', 'no-store');
      render(ctx, views, 'onboarding/link-non-valido.njk', { reason: r.reason, detail: p.detail, values: { cod_azienda: r.codAzienda ?? '' }, errors: {}, brand: await brandOf(deps, r.codAzienda) }, { status: p.status });
      return undefined;
    },
  });

  route({
    method: 'POST', path: '/api/magic-link', tag, access: PUBLIC, status: 202, body: magicLinkBody, response: magicLinkResponse,
    summary: 'Chiede un link per riprendere la pratica. Pubblico { email, cod_azienda? }: sempre 202 con la stessa risposta (il link arriva per messaggio se esiste una pratica aperta), limitato per e-mail e indirizzo. Personale (co, analyst, admin) { case_id } di una pratica aperta: 202, il link parte verso l\'indirizzo del cliente (mai al personale) e la risposta dice dove { detail, sent_to, expires_at }; 422 su case_id se la pratica non è dell\'azienda, non esiste o è chiusa',
    handler: async (ctx, { body }) => {
      const r = await issueMagicLink(deps, ctx, body);
      if (r.kind === 'public') return PUBLIC_LINK_ANSWER;
      return { detail: 'Link inviato all\'indirizzo del cliente', sent_to: r.sent_to, expires_at: r.expires_at };
    },
  });

  // The page behind the "link non valido" form (and reachable from the landing page): asks for a new link by e-mail.
  const linkPage = async (ctx: ApiCtx, data: { values: Record<string, string>; errors?: Record<string, string> }, status = 200) =>
    render(ctx, views, 'onboarding/link-non-valido.njk', { reason: null, errors: {}, brand: await brandOf(deps, data.values.cod_azienda), ...data }, { status });
  router.get('/onboarding/nuovo-link', PUBLIC, async (ctx) => linkPage(ctx, { values: { cod_azienda: typeof ctx.query.azienda === 'string' ? ctx.query.azienda.slice(0, 32) : '' } }));
  router.post('/onboarding/nuovo-link', PUBLIC, async (ctx) => {
    const form = (ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {};
    const values = { email: String(form.email ?? '').slice(0, 254), cod_azienda: String(form.cod_azienda ?? '').slice(0, 32) };
    const r = await requestLinkFromForm(deps, ctx, { email: values.email, cod_azienda: values.cod_azienda || undefined });
    if (!r.ok) return linkPage(ctx, { values, errors: r.errors }, r.status);
    redirectWithFlash(ctx, `/onboarding/nuovo-link${values.cod_azienda ? `?azienda=${encodeURIComponent(values.cod_azienda)}` : ''}`, 'success', PUBLIC_LINK_ANSWER.detail);
  });
};
