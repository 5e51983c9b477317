import type { Deps } from '../../../deps';

/**
 * Tells the verifications relying on these documents that a document changed (a new version, a
 * new expiry date): part 1 (kyc-kyb) recomputes their deadlines. Called after the change is
 * committed; the CDD expiry sweep needs nothing, it reads documenti.data_scadenza itself.
 *
 * INTEGRATION(h/kyc): replace the body with
 *   `await documentsChanged(deps, codAzienda, documentoIds);` imported from '../kyc-kyb' (or the area's index)
 * once h/kyc is merged; the call sites (replaceDocument) already pass the ids.
 */
export async function notifyDocumentsChanged(deps: Deps, codAzienda: string, documentoIds: string[]): Promise<void> {
  void deps; void codAzienda; void documentoIds;
}
