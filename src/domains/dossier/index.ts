// The dossier area's public surface: the document spine indexes customer dossiers through it.
export { listDossierDocuments, readDossierPdf, type DossierDocument } from './dossier.documents';
export { verifyManifest, type DossierManifest, type ManifestCheck } from './dossier.manifest';
export { DOSSIER_STATO_LABELS } from './dossier.labels';
