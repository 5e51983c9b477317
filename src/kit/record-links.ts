import type { SessionUser } from '../http/context';

/**
 * Record links: how an area offers a step on another area's record page without that area
 * importing it (areas import in one direction: the SOS area reads alerts and cases, never the
 * other way round). An area declares `recordLinks` in its definition (src/kit/area.ts); the page
 * of the record asks every area with `linksFor` and shows what comes back.
 *
 * A link is decided from the record and the signed-in user only, never from what the offering
 * area holds about the record: the SOS link (docs/sos.md) must say nothing about whether a report
 * already exists, since alert and case pages are read by roles that may not see reports (art. 39).
 */
export type LinkedRecord =
  | { kind: 'alert'; id: string; cod_alert: string; stato: string; disposizione: string | null }
  | { kind: 'case'; id: string; stato: string; cod_anagrafe: string | null }
  | { kind: 'cdd'; id: string; stato: string; cod_anagrafe: string }
  /** A customer's page (/anagrafe/:cod): never a link that tells whether an SOS exists. */
  | { kind: 'customer'; cod_anagrafe: string; stato: string };

export interface RecordLink {
  href: string;
  label: string;
  /** A short note beside the link (why it is offered). */
  hint?: string;
}

export type RecordLinks = (record: LinkedRecord, user: SessionUser) => RecordLink[];

/** Every link the areas offer on this record for this user, in the registry's order. */
export const linksFor = (areas: readonly { recordLinks?: RecordLinks }[], record: LinkedRecord, user: SessionUser): RecordLink[] =>
  areas.flatMap((a) => a.recordLinks?.(record, user) ?? []);
