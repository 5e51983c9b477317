import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import type { Role } from '../../kit/roles';
import type { ChartData } from '../../kit/charts';
import { casesForCustomer, type CustomerCase } from '../cases';
import { screeningForCustomer, type CustomerScreening } from '../screening';
import { movementsMonthlyVolumes, recentMovements, type MovementRecord, type MonthlyVolume } from '../movements';
import { cddHistoryForCustomer, CDD_LIVELLO_LABELS, CDD_MOTIVO_LABELS, CDD_STATO_LABELS, CDD_STATO_TONES } from '../cdd';
import { eddCasesForCustomer, EDD_STATO_LABELS, EDD_STATO_TONES, EDD_MOTIVO_LABELS } from '../edd';
import { ORIGINE_VERIFICA_LABELS, STATO_VERIFICA_LABELS, STATO_VERIFICA_TONES, verificationsForCustomer } from '../verifications';
import { onboardingWorkflowId } from '../../../workflows/onboarding/onboarding.contract';
import type { CustomerDocument, CustomerLink, CustomerRecord, CustomerRelationship } from './anagrafe.read';
import { riskHistory, type RiskStep } from './anagrafe.history';
import { customerGraph } from './anagrafe.graph';
import { labelOf } from './anagrafe.labels';
import { Customer } from './customer.model';

/**
 * The unified customer file (/anagrafe/:codAnagrafe/dossier): everything the product knows about
 * one customer, each part read from the area that owns it through its public surface, in one
 * tenant transaction (row-level security applies to every read).
 */

/** Who may see that suspicious transaction reports exist (tipping-off, art. 39 d.lgs. 231/2007; processes.md "SOS"). */
export const SOS_READERS: readonly Role[] = ['sos', 'co'];

export interface DossierWorkflow { kind: string; label: string; href: string | null; id: string; url: string }

/** One due-diligence record (a CDD task or an EDD case) as a row of the file. */
export interface DiligenceRow { label: string; href: string | null; livello?: string | null; motivo: string | null; stato: string; statoLabel: string; statoTone: string; created_at: Date | string; fine: Date | string | null }

/** One KYC or KYB verification as a row of the file, with the beneficial-owner discrepancy of its last calculation. */
export interface VerificationFileRow {
  label: string; tipo: string; href: string; origine: string; stato: string; statoLabel: string; statoTone: string;
  created_at: Date | string; fine: Date | string | null; discrepanza: boolean; discrepanze: string[];
}

/** A discrepancy as the verification stored it (text, or an object with its message), in words. */
const discrepancyText = (d: unknown): string => {
  if (typeof d === 'string') return d;
  if (d && typeof d === 'object') {
    const o = d as Record<string, unknown>;
    const t = o.messaggio ?? o.descrizione ?? o.nome;
    if (typeof t === 'string') return t;
  }
  return 'Differenza tra titolari calcolati e dichiarati';
};

/** How many months of volumes the file's chart shows, and how many of the latest movements its table lists. */
const CHART_MONTHS = 12;
const RECENT_MOVEMENTS = 10;

const monthLabel = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', month: 'short', year: 'numeric' });

/** The monthly volumes as the chart macro draws them: one bar per sign (and cash), in euro, every month present. */
export function volumesChart(months: MonthlyVolume[]): ChartData {
  return {
    categories: months.map((m) => monthLabel.format(new Date(`${m.mese}-01T00:00:00Z`))),
    series: [
      { name: 'Entrate', tone: 'green', data: months.map((m) => m.entrate) },
      { name: 'Uscite', tone: 'orange', data: months.map((m) => m.uscite) },
      { name: 'Di cui in contanti', tone: 'yellow', data: months.map((m) => m.contanti) },
    ],
  };
}

export interface CustomerFile {
  relationships: CustomerRelationship[];
  links: CustomerLink[];
  documents: CustomerDocument[];
  riskHistory: RiskStep[];
  graph: Awaited<ReturnType<typeof customerGraph>>;
  screening: CustomerScreening | null;
  cases: CustomerCase[];
  workflows: DossierWorkflow[];
  movements: {
    months: number; chart: ChartData | null; recent: MovementRecord[]; empty: string;
    /** The names of the subjects who executed the latest movements, by code. */
    esecutori: Record<string, string>;
  };
  verifiche: {
    cdd: DiligenceRow[]; cddEmpty: string; edd: DiligenceRow[]; eddEmpty: string;
    /** KYC and KYB verifications (the verifications area); `discrepanza`: the latest KYB's owners differ from those declared. */
    kycKyb: VerificationFileRow[]; kycKybEmpty: string; discrepanza: boolean;
  };
  /** Present only for SOS_READERS. */
  sos?: { message: string };
}

export async function customerFile(
  deps: Deps, trx: Knex.Transaction, record: CustomerRecord, opts: { roles: readonly Role[]; names: (usernames: string[]) => Promise<Record<string, string>> },
): Promise<CustomerFile> {
  const { customer: c, relationships, links, documents, versions } = record;
  const tenant = c.cod_azienda;
  // One read after the other: a transaction is one connection.
  const screening = await screeningForCustomer(trx, tenant, c.cod_anagrafe);
  const cases = await casesForCustomer(trx, tenant, c.cod_anagrafe);
  const cdd = await cddHistoryForCustomer(trx, c.cod_anagrafe);
  const edd = await eddCasesForCustomer(trx, c.cod_anagrafe);
  const kycKyb = await verificationsForCustomer(trx, tenant, c.cod_anagrafe);
  const volumes = await movementsMonthlyVolumes(trx, c.cod_anagrafe, CHART_MONTHS);
  const recent = await recentMovements(trx, c.cod_anagrafe, RECENT_MOVEMENTS);
  const executorCodes = [...new Set(recent.flatMap((m) => (m.cod_anagrafe_esecutore ? [m.cod_anagrafe_esecutore] : [])))];
  const executors = executorCodes.length
    ? await Customer.of(trx).whereIn('cod_anagrafe', executorCodes).select('cod_anagrafe', 'denominazione')
    : [];
  const names = await opts.names(versions.map((v) => v.changed_by).filter((v): v is string => !!v));

  const link = (id: string) => deps.temporal.webUiLink(id);
  const workflows: DossierWorkflow[] = [
    ...(c.onboarding_case_id ? [{
      kind: 'Onboarding', label: 'Pratica di onboarding', href: `/admin/onboarding/cases/${c.onboarding_case_id}`,
      id: onboardingWorkflowId(tenant, c.onboarding_case_id), url: link(onboardingWorkflowId(tenant, c.onboarding_case_id)),
    }] : []),
    ...cdd.map((t) => ({ kind: 'Adeguata verifica', label: t.cod_pratica, href: `/cdd/${t.id}`, id: t.workflow_id, url: link(t.workflow_id) })),
    ...edd.map((e) => ({ kind: 'Verifica rafforzata', label: e.cod_edd, href: `/edd/${e.id}`, id: e.workflow_id, url: link(e.workflow_id) })),
    ...kycKyb.map((v) => ({ kind: `Verifica ${v.tipo.toUpperCase()}`, label: v.cod_verifica, href: `/admin/${v.tipo}/${v.cod_verifica}`, id: v.workflow_id, url: link(v.workflow_id) })),
    ...cases.map((k) => ({ kind: 'Caso di indagine', label: k.titolo, href: `/casi/${k.id}`, id: k.workflowId, url: link(k.workflowId) })),
  ];

  return {
    relationships, links, documents, screening, cases, workflows,
    movements: {
      months: CHART_MONTHS, recent, esecutori: Object.fromEntries(executors.map((e) => [e.cod_anagrafe, e.denominazione])),
      // No chart of twelve empty months: the table below says there is nothing.
      chart: volumes.some((m) => m.numero > 0) ? volumesChart(volumes) : null,
      empty: 'Nessun movimento registrato per il cliente.',
    },
    verifiche: {
      cdd: cdd.map((t) => ({
        label: t.cod_pratica, href: `/cdd/${t.id}`, livello: labelOf(CDD_LIVELLO_LABELS, t.livello), motivo: labelOf(CDD_MOTIVO_LABELS, t.motivo), stato: t.stato,
        statoLabel: labelOf(CDD_STATO_LABELS, t.stato), statoTone: labelOf(CDD_STATO_TONES, t.stato), created_at: t.created_at,
        fine: t.completed_at ?? t.abstained_at ?? t.due_at,
      })),
      cddEmpty: 'Nessuna adeguata verifica registrata.',
      edd: edd.map((e) => ({
        label: e.cod_edd, href: `/edd/${e.id}`, motivo: e.motivi.map((m) => EDD_MOTIVO_LABELS[m] ?? m).join(', '), stato: e.stato,
        statoLabel: EDD_STATO_LABELS[e.stato] ?? e.stato, statoTone: EDD_STATO_TONES[e.stato] ?? 'secondary', created_at: e.created_at, fine: e.closed_at,
      })),
      eddEmpty: 'Nessuna verifica rafforzata aperta sul cliente.',
      kycKyb: kycKyb.map((v) => ({
        label: v.cod_verifica, tipo: v.tipo.toUpperCase(), href: `/admin/${v.tipo}/${v.cod_verifica}`, origine: labelOf(ORIGINE_VERIFICA_LABELS, v.origine),
        stato: v.stato, statoLabel: labelOf(STATO_VERIFICA_LABELS, v.stato), statoTone: labelOf(STATO_VERIFICA_TONES, v.stato), created_at: v.created_at,
        fine: v.decided_at ?? v.expired_at ?? v.scade_il, discrepanza: !!v.discrepanza_ubo, discrepanze: (v.discrepanze_ubo ?? []).map(discrepancyText),
      })),
      kycKybEmpty: 'Nessuna verifica KYC o KYB registrata.',
      // The newest KYB decides: a later calculation that matches the declaration clears the flag.
      discrepanza: !!kycKyb.find((v) => v.tipo === 'kyb')?.discrepanza_ubo,
    },
    riskHistory: riskHistory(versions, names),
    graph: await customerGraph(c, links, relationships),
    // No SOS area exists yet, so there is nothing to list; the section still says so to the two
    // roles entitled to know, and to nobody else, so its absence tells an analyst nothing either.
    ...(opts.roles.some((r) => SOS_READERS.includes(r)) ? { sos: { message: 'Nessuna segnalazione di operazione sospetta registrata per il soggetto: l\'archivio delle segnalazioni non è ancora attivo.' } } : {}),
  };
}
