import type { Knex } from 'knex';
import { STAFF_READ, type Role } from '../../kit/roles';
import { RECORDS_DELETERS, RECORDS_WRITERS } from './records.routes';
import { staff } from '../../kit/access';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, notFound, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { fullNamesByUsername, userNames } from '../../kit/users';
import { isUuid } from '../../kit/ids';
import type { RegisterRoutes } from '../../kit/area';
import { COUNTRY_OPTIONS } from '../onboarding';
import { customerFormGroups, errorSummary, shownFields, formValues, parseCreateForm, parseEditForm, recordValues } from './anagrafe.forms';
import { linksFor } from '../../kit/record-links';
import { historyEntries, identityView } from './anagrafe.history';
import { readCustomerRecord, type CustomerRecord } from './anagrafe.read';
import { customerFile } from './anagrafe.dossier';
import { PAGE_LABELS } from './anagrafe.labels';
import { customerAsOf, getCustomer } from './records.commands';
import { createCustomerFromApi, deleteCustomerFromApi, listCustomers, updateCustomerFromApi } from './records.service';
import { deleteCustomerSchema, listCustomersQuery, type UpdateCustomerBody } from './records.schemas';
import type { Customer } from './customer.model';

/** Who may create and edit, and who may delete, a customer record: the API's own role lists. */
const WRITERS: readonly Role[] = RECORDS_WRITERS;
const DELETERS: readonly Role[] = RECORDS_DELETERS;

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The people a record names (created_by, changed_by are usernames; older rows may hold an id). */
async function peopleNames(trx: Knex.Transaction, who: string[]): Promise<Record<string, string>> {
  return { ...(await fullNamesByUsername(trx, who)), ...(await userNames(trx, who.filter(isUuid))) };
}

/**
 * The customer records pages (/anagrafe): list, detail with its history and "as it was on",
 * create and edit forms, soft delete, and the unified customer file. Without JavaScript every
 * action is a form: post, redirect, flash; htmx only swaps the list's table.
 */
export const registerAnagrafePages: RegisterRoutes = (router, { deps, views, areas }) => {
  const tx = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const user = (ctx: Ctx) => ctx.state.user!;

  /** The customer, or a 404 page: another tenant's code is not found (row-level security). */
  const load = async (trx: Knex.Transaction, cod: string): Promise<Customer> => {
    const c = await getCustomer(trx, cod);
    if (!c) throw notFound('Soggetto', 'm');
    return c;
  };
  const loadRecord = async (trx: Knex.Transaction, cod: string): Promise<CustomerRecord> => {
    const r = await readCustomerRecord(trx, cod);
    if (!r) throw notFound('Soggetto', 'm');
    return r;
  };

  // ---- list ----

  const listData = async (ctx: Ctx) => {
    // The API's list and query (an unreadable filter shows the whole list, as the other list pages do).
    const parsed = listCustomersQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listCustomersQuery.parse({});
    const result = await listCustomers(deps, tenantOf(ctx), user(ctx), q);
    const filters = {
      q: q.q ?? '', tipo: q.tipo ?? '', classe_rischio: q.classe_rischio ?? '', stato: q.stato ?? '',
      pep: q.pep === undefined ? '' : String(q.pep), paese: q.paese ?? '', codice_esterno: q.codice_esterno ?? '', sort: q.sort,
    };
    // The export answers with the same filters as the list on screen (GET /api/export/anagrafe).
    const exportQuery = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '' && v !== undefined).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return { result, filters, exportQuery, labels: PAGE_LABELS, countries: COUNTRY_OPTIONS, canCreate: hasRole(user(ctx), WRITERS) };
  };

  router.get('/anagrafe', staff(STAFF_READ), async (ctx) => {
    render(ctx, views, 'anagrafe/list.njk', await listData(ctx), { fragment: 'anagrafe/_table.njk' });
  });

  /**
   * The list's table alone, for the filter form's htmx swap. The page's own address (with the
   * same filters) goes into the browser's history, so a reload or a shared link opens the full page.
   */
  router.get('/partials/anagrafe-table', staff(STAFF_READ), async (ctx) => {
    const data = await listData(ctx);
    const qs = new URLSearchParams(Object.entries(data.filters).filter(([, v]) => v !== '' && v !== undefined).map(([k, v]): [string, string] => [k, String(v)])).toString();
    ctx.set('HX-Push-Url', `/anagrafe${qs ? `?${qs}` : ''}`);
    render(ctx, views, 'anagrafe/_table.njk', data);
  });

  // ---- create ----

  const renderForm = (ctx: Ctx, mode: { edit?: { cod: string; denominazione: string; tipo: string } }, values: Record<string, string>, errors: Record<string, string> = {}, status = 200) => {
    const groups = customerFormGroups(!!mode.edit, mode.edit?.tipo);
    const e = mode.edit;
    render(ctx, views, 'anagrafe/form.njk', {
      groups, values, errors, summary: errorSummary(groups, errors),
      title: e ? `Modifica ${e.denominazione}` : 'Nuovo soggetto',
      subtitle: e ? `${e.cod} · le modifiche sono registrate come una nuova versione` : 'Un cliente o una persona collegata a un cliente',
      breadcrumb: e ? [{ label: 'Anagrafe', href: '/anagrafe' }, { label: e.denominazione, href: `/anagrafe/${e.cod}` }, { label: 'Modifica' }]
        : [{ label: 'Anagrafe', href: '/anagrafe' }, { label: 'Nuovo soggetto' }],
      action: e ? `/anagrafe/${e.cod}/modifica` : '/anagrafe/nuovo',
      cancelUrl: e ? `/anagrafe/${e.cod}` : '/anagrafe',
      submitLabel: e ? 'Salva le modifiche' : 'Registra il soggetto',
    }, { status });
  };

  /** A refused command's field messages next to the fields; anything else is not the form's business. */
  const commandErrors = (err: unknown): Record<string, string> | undefined => {
    if (err instanceof ValidationError) return Object.fromEntries(err.errors.map((x) => [x.path || '_form', x.message]));
    // Another subject holds the external code: the message goes next to the field.
    if (err instanceof HttpError && err.code === 'DUPLICATE_EXTERNAL_CODE') return { codice_esterno: err.detail ?? err.title };
    if (err instanceof HttpError && err.status === 409) return { _form: err.detail ?? err.title };
    return undefined;
  };

  router.get('/anagrafe/nuovo', staff(WRITERS), (ctx) => renderForm(ctx, {}, { ...formValues({}), tipo_soggetto: 'persona_fisica', pep: 'false' }));

  router.post('/anagrafe/nuovo', staff(WRITERS), async (ctx) => {
    const values = formValues(formBody(ctx));
    const parsed = parseCreateForm(values);
    if (!parsed.ok) return renderForm(ctx, {}, values, parsed.errors, 422);
    try {
      const c = await createCustomerFromApi(deps, tenantOf(ctx), user(ctx), parsed.body);
      redirectWithFlash(ctx, `/anagrafe/${c.cod_anagrafe}`, 'success', 'Soggetto registrato');
    } catch (err) {
      const errors = commandErrors(err);
      if (!errors) throw err;
      renderForm(ctx, {}, values, errors, 422);
    }
  });

  // ---- detail ----

  /** The detail page; a refused deletion comes back here with its message next to the reason. */
  const renderDetail = async (ctx: Ctx, cod: string, del: { values: Record<string, string>; errors: Record<string, string> } = { values: {}, errors: {} }, status = 200) => {
    const asOfInput = typeof ctx.query.al === 'string' ? ctx.query.al : '';
    const asOfErrors: Record<string, string> = {};
    if (asOfInput && !ISO_DAY.test(asOfInput)) asOfErrors.al = 'Scrivi una data valida (giorno, mese, anno)';
    const wantAsOf = asOfInput !== '' && !asOfErrors.al;
    const d = await tx(ctx, async (trx) => {
      const r = await loadRecord(trx, cod);
      const names = await peopleNames(trx, [...r.versions.map((v) => v.changed_by), r.customer.eliminato_da ?? ''].filter(Boolean));
      const asOf = wantAsOf ? await customerAsOf(trx, cod, asOfInput) : undefined;
      return { a: r.customer, rapporti: r.relationships, legami: r.links, documenti: r.documents, versions: r.versions, names, asOf };
    });
    const canWrite = hasRole(user(ctx), WRITERS) && d.a.stato !== 'eliminato';
    render(ctx, views, 'anagrafe/detail.njk', {
      a: d.a, view: identityView(d.a as unknown as Record<string, unknown>), labels: PAGE_LABELS, rapporti: d.rapporti, legami: d.legami, documenti: d.documenti,
      versioni: historyEntries(d.versions, d.names), eliminatoDa: d.a.eliminato_da ? d.names[d.a.eliminato_da] ?? d.a.eliminato_da : null,
      asOfInput, asOfErrors,
      asOf: wantAsOf ? {
        date: asOfInput, record: d.asOf ? { ...d.asOf.snapshot, cod_anagrafe: cod, versione: d.asOf.versione } : null,
        view: d.asOf ? identityView(d.asOf.snapshot) : null, changedAt: d.asOf?.changed_at,
      } : null,
      actions: canWrite ? [{ label: 'Modifica', href: `/anagrafe/${cod}/modifica`, variant: 'primary' }] : [],
      links: linksFor(areas, { kind: 'customer', cod_anagrafe: cod, stato: d.a.stato }, user(ctx)),
      canDelete: hasRole(user(ctx), DELETERS),
      openRelationships: d.rapporti.filter((r) => r.stato !== 'chiuso').map((r) => r.cod_rapporto),
      deleteValues: del.values, deleteErrors: del.errors,
    }, { status });
  };

  router.get('/anagrafe/:cod', staff(STAFF_READ), (ctx) => renderDetail(ctx, ctx.params.cod!));

  // ---- edit ----

  router.get('/anagrafe/:cod/modifica', staff(WRITERS), async (ctx) => {
    const a = await tx(ctx, (trx) => load(trx, ctx.params.cod!));
    if (a.stato === 'eliminato') return redirectWithFlash(ctx, `/anagrafe/${a.cod_anagrafe}`, 'warning', 'Un soggetto eliminato non si può modificare');
    renderForm(ctx, { edit: { cod: a.cod_anagrafe, denominazione: a.denominazione, tipo: a.tipo_soggetto } }, recordValues(a as unknown as Record<string, unknown>));
  });

  router.post('/anagrafe/:cod/modifica', staff(WRITERS), async (ctx) => {
    const a = await tx(ctx, (trx) => load(trx, ctx.params.cod!));
    // The type of subject is the record's: the edit form does not send it.
    const values: Record<string, string> = { ...formValues(formBody(ctx)), tipo_soggetto: a.tipo_soggetto };
    const edit = { cod: a.cod_anagrafe, denominazione: a.denominazione, tipo: a.tipo_soggetto };
    const versione = Number(values.versione);
    if (!Number.isInteger(versione) || versione < 1) {
      return renderForm(ctx, { edit }, values, { _form: 'Il modulo non indica la versione che stai modificando: riaprilo dalla scheda del soggetto' }, 422);
    }
    const parsed = parseEditForm(values, recordValues(a as unknown as Record<string, unknown>), a, shownFields(customerFormGroups(true, a.tipo_soggetto)));
    if (!parsed.ok) return renderForm(ctx, { edit }, values, parsed.errors, 422);
    try {
      // The API's update (records.service): the same command, and the re-screening when a name, a date of birth or a
      // nationality changed. The patch may clear fields (null), which the command takes and the API's schema never produces.
      const r = await updateCustomerFromApi(deps, tenantOf(ctx), user(ctx), a.cod_anagrafe, { ...parsed.patch, versione } as UpdateCustomerBody);
      const changed = r.campi_modificati.length;
      const screened = r.rescreen === null ? '' : r.rescreen.eseguito
        ? ` Il soggetto è stato sottoposto di nuovo a screening: ${r.rescreen.corrispondenze_nuove === 0 ? 'nessuna nuova corrispondenza' : `${r.rescreen.corrispondenze_nuove} nuove corrispondenze da esaminare`}.`
        : ' Il nuovo screening non è riuscito: sarà ripetuto con il prossimo aggiornamento delle liste.';
      redirectWithFlash(ctx, `/anagrafe/${a.cod_anagrafe}`, 'success', (changed ? 'Modifiche salvate.' : 'Nessuna modifica da salvare.') + screened);
    } catch (err) {
      const errors = commandErrors(err);
      if (!errors) throw err;
      renderForm(ctx, { edit }, values, errors, 422);
    }
  });

  // ---- soft delete ----

  router.post('/anagrafe/:cod/elimina', staff(DELETERS), async (ctx) => {
    const body = formBody(ctx);
    const cod = ctx.params.cod!;
    const values = { motivo: typeof body.motivo === 'string' ? body.motivo : '' };
    const reason = deleteCustomerSchema.safeParse(values);
    // The reason is missing or unreadable: the page comes back with the message next to it, the panel open.
    if (!reason.success) return renderDetail(ctx, cod, { values, errors: { motivo: reason.error.issues[0]!.message } }, 422);
    try {
      await deleteCustomerFromApi(deps, tenantOf(ctx), user(ctx), cod, reason.data.motivo);
    } catch (err) {
      if (err instanceof ValidationError) return renderDetail(ctx, cod, { values, errors: { motivo: err.errors[0]?.message ?? err.detail ?? 'Motivo non valido' } }, 422);
      // Open relationships (or a record already deleted): refused, and the page says why.
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, `/anagrafe/${encodeURIComponent(cod)}`, 'danger', err.detail ?? err.title);
      throw err;
    }
    redirectWithFlash(ctx, `/anagrafe/${encodeURIComponent(cod)}`, 'success', 'Soggetto eliminato: i dati restano conservati');
  });

  // ---- the customer file ----

  router.get('/anagrafe/:codAnagrafe/dossier', staff(STAFF_READ), async (ctx) => {
    const cod = ctx.params.codAnagrafe!;
    const { a, file } = await tx(ctx, async (trx) => {
      const r = await loadRecord(trx, cod);
      return { a: r.customer, file: await customerFile(deps, trx, r, { roles: user(ctx).ruoli, names: (who) => peopleNames(trx, who) }) };
    });
    const sections = [
      { id: 'identita', label: 'Identità' }, { id: 'rischio', label: 'Rischio' }, { id: 'grafo', label: 'Grafo dei legami' },
      { id: 'rapporti', label: 'Rapporti' }, { id: 'documenti', label: 'Documenti' }, { id: 'legami', label: 'Titolari effettivi' },
      { id: 'movimenti', label: 'Movimenti' }, { id: 'screening', label: 'Screening' }, { id: 'cdd', label: 'Adeguata verifica' },
      { id: 'edd', label: 'Verifica rafforzata' }, { id: 'verifiche-kyc-kyb', label: 'Verifiche' }, { id: 'casi', label: 'Casi' },
      ...(file.sos ? [{ id: 'sos', label: 'Segnalazioni' }] : []), { id: 'processi', label: 'Processi' },
    ];
    render(ctx, views, 'anagrafe/dossier.njk', {
      a, view: identityView(a as unknown as Record<string, unknown>), labels: PAGE_LABELS, sections,
      rapporti: file.relationships, legami: file.links, documenti: file.documents, riskHistory: file.riskHistory, graph: file.graph,
      screening: file.screening, cases: file.cases, workflows: file.workflows, sos: file.sos,
      movements: file.movements, verifiche: file.verifiche,
    });
  });
};
