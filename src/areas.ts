import type { AreaDefinition } from './kit/area';
import { adminArea } from './domains/admin/area';
import { auditArea } from './domains/audit/area';
import { authArea } from './domains/auth/area';
import { casesArea } from './domains/cases/area';
import { cddArea } from './domains/cdd/area';
import { dossierArea } from './domains/dossier/area';
import { eddArea } from './domains/edd/area';
import { esignArea } from './domains/esign/area';
import { exportsArea } from './domains/exports/area';
import { filingArea } from './domains/filing/area';
import { importsArea } from './domains/imports/area';
import { monitoringArea } from './domains/monitoring/area';
import { movementsArea } from './domains/movements/area';
import { notificationsArea } from './domains/notifications/area';
import { onboardingArea } from './domains/onboarding/area';
import { outboxArea } from './domains/outbox/area';
import { recordsArea } from './domains/records/area';
import { reportingArea } from './domains/reporting/area';
import { riskArea } from './domains/risk/area';
import { screeningArea } from './domains/screening/area';
import { sosArea } from './domains/sos/area';
import { spineArea } from './domains/spine/area';
import { systemArea } from './domains/system/area';
import { verificationsArea } from './domains/verifications/area';

/**
 * The registry: the web process and the worker are assembled from this list (routes,
 * pages, navigation; activities and the workflow bundle). Adding an area adds one line.
 * Order matters only for routes that overlap (earlier areas match first).
 */
export const AREAS: readonly AreaDefinition[] = [
  systemArea,
  authArea,
  // Before admin: /organizzazione/messaggi would otherwise be taken for a tenant by /organizzazione/:cod.
  outboxArea,
  adminArea,
  auditArea,
  notificationsArea,
  casesArea,
  filingArea,
  screeningArea,
  esignArea,
  onboardingArea,
  // Before records: /anagrafe/importa would otherwise be taken for a customer by /anagrafe/:codAnagrafe.
  importsArea,
  recordsArea,
  cddArea,
  eddArea,
  riskArea,
  // Before verifications: /documenti/spine would otherwise be taken for a document by /documenti/:cod.
  spineArea,
  verificationsArea,
  movementsArea,
  monitoringArea,
  sosArea,
  // After SOS: /dossier/sos/:codSegnalazione is the SOS area's (no overlap with /dossier/:id, one segment shorter).
  dossierArea,
  exportsArea,
  reportingArea,
];
