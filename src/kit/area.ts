import type nunjucks from 'nunjucks';
import type { ActivityDeps } from '../../activities/deps';
import type { Deps } from '../deps';
import type { SessionStore } from '../http/session-store';
import type { DocumentSource } from './document-sources';
import type { Evaluators } from './evaluators';
import type { HomeTiles } from './home';
import type { ListDefinition } from './list';
import type { NavEntry } from './nav';
import type { RecordLinks } from './record-links';
import type { Routes } from './routes';

/** What every area's routes receive: the dependencies plus the shared HTTP services. */
export interface AppServices {
  deps: Deps;
  views: nunjucks.Environment;
  sessions: SessionStore;
  /** The registry the app was assembled from: the home asks each area for its tiles. */
  areas: readonly AreaDefinition[];
}

export type { NavEntry, NavSectionName } from './nav';
export { NAV_SECTION_ORDER } from './nav';

export type RegisterRoutes = (routes: Routes, services: AppServices) => void;

/**
 * One area of the product, as the registry (src/areas.ts) assembles it into the web
 * process and the worker. An area's folders are src/domains/<area>/ plus its processes
 * under workflows/<process>/ and activities/<process>/; other areas reach it only through
 * its public surface (src/domains/<area>/index.ts and its processes' *.contract.ts).
 */
export interface AreaDefinition {
  /** Short English name, also the folder under src/domains/. */
  name: string;
  /** Italian name, shown where the area is named to people. */
  label: string;
  /** API routes and pages, each declaring who may call it. */
  routes?: RegisterRoutes[];
  /** Activity implementations for the worker (merged; names must be unique across areas). */
  activities?: (deps: ActivityDeps) => Record<string, (...args: never[]) => Promise<unknown>>;
  /**
   * Absolute paths of the modules exporting the area's workflow functions; the worker's
   * workflow bundle is generated from these (workflow code is bundled, never imported).
   */
  workflowModules?: string[];
  /** Entries of the staff navigation. */
  navigation?: NavEntry[];
  /**
   * Every list the area serves (API and pages), read through the list kit (src/kit/list): the
   * query-plan test explains each of them on seeded data, and each needs its indexes.
   */
  lists?: ListDefinition[];
  /**
   * The area's tiles on the staff home (src/kit/home.ts): what waits for the signed-in user in
   * the active tenant, counted with the area's own queries in a tenant transaction.
   */
  home?: HomeTiles;
  /**
   * What the area judges as other areas record it (src/kit/evaluators.ts): transaction monitoring
   * evaluates each movement POST /api/movimenti commits, without the movements area importing it.
   */
  evaluators?: Evaluators;
  /**
   * Steps the area offers on other areas' record pages (src/kit/record-links.ts): the SOS area
   * links an alert closed as suspicious to a new report, without the alert pages importing it.
   */
  recordLinks?: RecordLinks;
  /**
   * The kinds of document the area keeps, as the document spine indexes them (src/kit/document-sources.ts):
   * the name of each kind, its record's page, and how to read bytes the area keeps in its own rows.
   */
  documentSources?: DocumentSource[];
}

export const defineArea = (a: AreaDefinition): AreaDefinition => a;
