import type { Deps } from '../../../deps';
import { documentsChanged } from '../kyc-kyb';

/**
 * Tells the verifications relying on these documents that a document changed (a new version, a
 * new expiry date): part 1 (kyc-kyb) signals their workflows, which read their deadline again.
 * Called after the change is committed. The CDD expiry sweep needs nothing: it reads
 * documenti.data_scadenza itself, keyed by document and date.
 */
export async function notifyDocumentsChanged(deps: Deps, codAzienda: string, documentoIds: string[]): Promise<void> {
  await documentsChanged(deps, codAzienda, documentoIds);
}
