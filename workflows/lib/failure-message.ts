/** The message worth showing for a failed activity or child: its cause's, not the wrapper's. */
export function failureMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? failureMessage(err.cause) : err.message;
}
