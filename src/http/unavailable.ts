import { isGrpcDeadlineError, isGrpcServiceError, ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

/** Connection-level failures of PostgreSQL and the network, and server states that say "not now". */
const DB_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
]);
const DB_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection|the database system is (starting up|shutting down)/i;
/** gRPC status codes: DEADLINE_EXCEEDED 4, RESOURCE_EXHAUSTED 8, UNAVAILABLE 14. */
const GRPC_UNAVAILABLE = new Set<number>([4, 8, 14]);

function oneUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; name?: string; message?: string };
  if (typeof err.code === 'string' && DB_CODES.has(err.code)) return true;
  if (err.name === 'KnexTimeoutError') return true;
  if (typeof err.message === 'string' && DB_MESSAGES.test(err.message)) return true;
  if (e instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  if (isGrpcDeadlineError(e)) return true;
  if (isGrpcServiceError(e) && GRPC_UNAVAILABLE.has(e.code)) return true;
  if (e instanceof ServiceError && /UNAVAILABLE|DEADLINE_EXCEEDED|Failed to connect|connection/i.test(e.message)) return true;
  return false;
}

/**
 * Whether an error means a dependency was unreachable (database, Temporal, the worker),
 * so the request changed nothing the client could not safely retry: a 503, never a 500.
 */
export function isUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (oneUnavailable(e)) return true;
    const nested = (e as { errors?: unknown[] }).errors; // AggregateError (several addresses refused)
    if (Array.isArray(nested) && nested.some(oneUnavailable)) return true;
  }
  return false;
}
