import { XMLBuilder } from 'fast-xml-parser';
import type { SosContentRows } from '../sos.content';

/**
 * The one module that maps a report onto its submission format (docs/sos.md, "Export"): today the
 * project's published schema public/schemas/sos-segnalazione-1.0.xsd. The UIF's own technical
 * format is not public here; replacing this module (and SOS_XSD_FILE) swaps the format, nothing
 * else reads the XML's shape.
 */
export const SOS_XML_NAMESPACE = 'urn:compliance-platform:sos:1.0';
export const SOS_XSD_FILE = 'sos-segnalazione-1.0.xsd';

export interface SosExportInput {
  report: {
    cod_segnalazione: string; tipo: string; origine: string; origine_ref: string | null; oggetto: string; descrizione: string;
    reporter_username: string; protocollo_uif: string | null; created_at: Date | string; trasmessa_at: Date | string | null;
  };
  sostituisce: string | null;
  content: SosContentRows;
  allegati: { nome_file: string; sha256: string; mime: string }[];
}

const iso = (d: Date | string) => new Date(d).toISOString();
/** Optional elements are left out, never written empty (an empty string would not pass their type). */
const opt = <T>(v: T | null | undefined) => (v === null || v === undefined || v === '' ? undefined : v);

export function sosToXml(x: SosExportInput): string {
  const ids = new Map(x.content.soggetti.map((s, i) => [s.id, `S${i + 1}`]));
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Segnalazione: {
      '@_xmlns': SOS_XML_NAMESPACE,
      '@_versione': '1.0',
      Intestazione: {
        Codice: x.report.cod_segnalazione,
        Tipo: x.report.tipo,
        Sostituisce: opt(x.sostituisce),
        Origine: x.report.origine,
        RiferimentoOrigine: opt(x.report.origine_ref),
        Oggetto: x.report.oggetto,
        DataCreazione: iso(x.report.created_at),
        Segnalante: x.report.reporter_username,
        ProtocolloUIF: opt(x.report.protocollo_uif),
        DataTrasmissione: x.report.trasmessa_at ? iso(x.report.trasmessa_at) : undefined,
      },
      Soggetti: {
        Soggetto: x.content.soggetti.map((s) => ({
          '@_id': ids.get(s.id), Nominativo: s.nominativo, CodiceFiscale: opt(s.codice_fiscale), CodiceAnagrafe: opt(s.cod_anagrafe), Ruolo: s.ruolo,
        })),
      },
      Rapporti: x.content.rapporti.length ? { Rapporto: x.content.rapporti.map((r) => ({ Codice: opt(r.cod_rapporto), Descrizione: r.descrizione })) } : undefined,
      Legami: x.content.legami.length
        ? { Legame: x.content.legami.map((l) => ({ '@_da': ids.get(l.soggetto_da), '@_a': ids.get(l.soggetto_a), '@_tipo': l.tipo })) }
        : undefined,
      Operazioni: {
        Operazione: x.content.operazioni.map((o) => ({
          Data: o.data_operazione,
          Importo: { '#text': Number(o.importo).toFixed(2), '@_valuta': o.valuta },
          Segno: opt(o.segno), Causale: opt(o.causale), Descrizione: opt(o.descrizione), CodiceAlert: opt(o.cod_alert),
        })),
      },
      Fenomeni: { Fenomeno: x.content.fenomeni.map((f) => ({ '@_codice': f.codice })) },
      Indicatori: { Indicatore: x.content.indicatori.map((i) => ({ '@_numero': i.indicatore, ...(i.sottoindice ? { '@_sottoindice': i.sottoindice } : {}) })) },
      Descrizione: x.report.descrizione,
      Allegati: x.allegati.length ? { Allegato: x.allegati.map((a) => ({ '#text': a.nome_file, '@_sha256': a.sha256, '@_mime': a.mime })) } : undefined,
    },
  };
  return new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: false }).build(doc) as string;
}
