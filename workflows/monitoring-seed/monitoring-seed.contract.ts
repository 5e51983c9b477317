/**
 * The seed of a demo tenant's labelled year (docs/monitoring.md, "The generator and the seed"):
 * one workflow per seed job (`monitoring-seed:<cod_azienda>:<id>`), its phases recorded in
 * monitoring_seed_jobs (GET /api/engine/seed/:id reads it): the files generated, the records
 * area's imports of customers, relationships and movements (each the import's own workflow, as a
 * child), the crypto transfers as KYT events, the templates put in force, the replay of the year
 * (the monitoring run's own workflow, as a child), then the work a compliance officer would open on
 * it (`pratiche`: cases from alerts, CDD tasks, risk assessments).
 */
export const MONITORING_SEED_WORKFLOW_TYPE = 'monitoringSeedWorkflow';
export const MONITORING_SEED_RECORD_TYPE = 'monitoring-seed';
export const monitoringSeedWorkflowId = (codAzienda: string, seedId: string) => `monitoring-seed:${codAzienda}:${seedId}`;

export const SEED_STATI = ['in_coda', 'in_corso', 'completato', 'fallito'] as const;
export type SeedStato = (typeof SEED_STATI)[number];
export const SEED_FASI = ['in_coda', 'generazione', 'import_clienti', 'import_rapporti', 'import_movimenti', 'eventi_kyt', 'regole', 'replay', 'pratiche', 'fine'] as const;
export type SeedFase = (typeof SEED_FASI)[number];
export const SEED_IMPORTS = ['clienti', 'rapporti', 'movimenti'] as const;
export type SeedImport = (typeof SEED_IMPORTS)[number];

export interface MonitoringSeedInput {
  codAzienda: string;
  seedId: string;
  /** The engine's queue, for the replay's chunks. */
  engineTaskQueue?: string;
}

/** The generated files, as import jobs ready to run. */
/** What the `pratiche` phase opened: cases escalated from alerts, CDD tasks, risk assessments queued. */
export interface SeedWork { casi: number; pratiche_cdd: number; valutazioni: number }

export interface SeedFiles { imports: Record<SeedImport, string> }
