import { createHash } from 'node:crypto';

/** Record ids are UUIDs; a path parameter that is not one can only be "not found". */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/**
 * A UUID derived from a key (version-4 shape): the same key always gives the same id, so a record
 * opened on behalf of another (a case from an alert) is the same record however often it is asked for.
 */
export function uuidFromKey(key: string): string {
  const x = createHash('sha256').update(key).digest('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-4${x.slice(13, 16)}-${((parseInt(x[16]!, 16) & 0x3) | 0x8).toString(16)}${x.slice(17, 20)}-${x.slice(20, 32)}`;
}
