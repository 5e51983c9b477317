import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Reads a proto3-JSON history (as `temporal workflow show --output json` writes it).
 * @temporalio/common's historyFromJSON uses its own nested copy of protobufjs, whose
 * `instanceof Type` check fails against the types @temporalio/proto builds with another
 * copy in this install. Resolving protojson next to @temporalio/proto uses the same copy
 * as the types, whatever npm's layout.
 */
const requireFromProto = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
const { fromJson } = requireFromProto('protobufjs/ext/protojson') as { fromJson: (type: unknown, json: unknown, opts: unknown) => unknown };
const proto = requireFromProto('@temporalio/proto');
const { patchProtobufRoot } = requireFromProto('@temporalio/proto/lib/patch-protobuf-root') as { patchProtobufRoot: (r: unknown) => { lookupType(n: string): unknown } };
const historyType = patchProtobufRoot(proto).lookupType('temporal.api.history.v1.History');

export function loadHistory(file: string) {
  return fromJson(historyType, JSON.parse(readFileSync(file, 'utf8')), { ignoreUnknownFields: true });
}
