/** The dossier row's columns without the PDF's bytes: what every read but the download selects. */
export const DOSSIER_COLUMNS = [
  'id', 'cod_azienda', 'cod_anagrafe', 'denominazione', 'sezioni', 'stato', 'pdf_sha256', 'pdf_bytes', 'pagine', 'manifest', 'manifest_jws',
  'created_by', 'ceremony_id', 'signed_by', 'signed_at', 'archived_at', 'workflow_id', 'generated_at', 'created_at', 'updated_at',
] as const;
