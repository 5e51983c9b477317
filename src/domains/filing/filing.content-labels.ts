/**
 * How the filing page shows a goAML report (docs/filing.md, "Pages"): each field under its section
 * (the report, its operations, the parties of each operation) with an Italian name, the goAML path
 * kept beside it as a secondary detail. Pure.
 */

/** Italian names of goAML elements; an element not listed shows its own name, underscores as spaces. */
export const GOAML_FIELD_LABELS: Record<string, string> = {
  rentity_id: 'Codice del segnalante', rentity_branch: 'Filiale', submission_code: 'Modalità di invio', report_code: 'Tipo di report',
  entity_reference: 'Riferimento interno', fiu_ref_number: 'Riferimento della FIU', submission_date: 'Data di invio', currency_code_local: 'Valuta locale',
  reporting_person: 'Persona segnalante', location: 'Luogo', reason: 'Motivo della segnalazione', action: 'Azioni intraprese',
  report_indicators: 'Indicatori', indicator: 'Indicatore', schema_version: 'Versione dello schema',
  transactionnumber: 'Numero dell\'operazione', internal_ref_number: 'Riferimento interno', transaction_location: 'Luogo dell\'operazione',
  transaction_description: 'Descrizione', date_transaction: 'Data dell\'operazione', value_date: 'Data valuta', transmode_code: 'Modalità',
  transmode_comment: 'Nota sulla modalità', amount_local: 'Importo (valuta locale)', late_deposit: 'Deposito tardivo',
  t_from_my_client: 'Ordinante (cliente)', t_from: 'Ordinante', t_to_my_client: 'Beneficiario (cliente)', t_to: 'Beneficiario', involved_parties: 'Parti coinvolte',
  party: 'Parte', role: 'Ruolo', from_funds_code: 'Fondi in uscita', to_funds_code: 'Fondi in entrata', from_country: 'Paese di provenienza', to_country: 'Paese di destinazione',
  from_person: 'Persona', to_person: 'Persona', from_entity: 'Ente', to_entity: 'Ente', from_account: 'Conto', to_account: 'Conto',
  person: 'Persona', entity: 'Ente', account: 'Conto', gender: 'Sesso', title: 'Titolo', first_name: 'Nome', middle_name: 'Secondo nome', last_name: 'Cognome',
  birthdate: 'Data di nascita', birth_place: 'Luogo di nascita', id_number: 'Numero di identificazione', nationality1: 'Cittadinanza', nationality2: 'Seconda cittadinanza',
  residence: 'Paese di residenza', phones: 'Telefoni', phone: 'Telefono', tph_contact_type: 'Tipo di contatto', tph_communication_type: 'Mezzo',
  tph_country_prefix: 'Prefisso internazionale', tph_number: 'Numero', addresses: 'Indirizzi', address: 'Indirizzo', address_type: 'Tipo di indirizzo',
  town: 'Località', city: 'Città', zip: 'CAP', country_code: 'Paese', state: 'Provincia o stato', occupation: 'Professione',
  identifications: 'Documenti', identification: 'Documento', type: 'Tipo', number: 'Numero', issue_date: 'Data di rilascio', expiry_date: 'Data di scadenza',
  issue_country: 'Paese di rilascio', issued_by: 'Rilasciato da', tax_number: 'Codice fiscale', tax_reg_number: 'Iscritto ai fini fiscali',
  email: 'E-mail', name: 'Denominazione', commercial_name: 'Nome commerciale', incorporation_legal_form: 'Forma giuridica',
  incorporation_number: 'Numero di registrazione', incorporation_country_code: 'Paese di costituzione', business: 'Attività',
  activity: 'Attività segnalata', report_parties: 'Parti dell\'attività', report_party: 'Parte', significance: 'Rilevanza', comments: 'Note',
};

export type ContentSection = 'report' | 'transactions' | 'parties' | 'activity';
export const CONTENT_SECTION_LABELS: Record<ContentSection, string> = {
  report: 'Segnalazione', transactions: 'Operazioni', parties: 'Parti', activity: 'Attività',
};

const PARTY_KEYS = /^(t_from_my_client|t_from|t_to_my_client|t_to|involved_parties|report_parties)$/;

const labelOf = (name: string) => GOAML_FIELD_LABELS[name] ?? name.replace(/_/g, ' ');

/** A path's steps: `transaction[0].t_from.from_person.first_name` → names and indexes. */
const stepsOf = (path: string) => path.split('.').map((s) => { const m = /^([^[]+)(?:\[(\d+)\])?$/.exec(s)!; return { name: m[1]!, index: m[2] === undefined ? null : Number(m[2]) }; });

/** Where a field goes and what it is called there: a section, a group within it (an operation, a party), an Italian name. */
export function placeOf(path: string): { section: ContentSection; group: string; label: string } {
  const steps = stepsOf(path);
  const leaf = steps[steps.length - 1]!;
  const label = `${labelOf(leaf.name)}${leaf.index !== null && leaf.index > 0 ? ` ${leaf.index + 1}` : ''}`;
  const head = steps[0]!;
  if (head.name === 'transaction' || head.name === 'activity') {
    const n = head.index === null ? '' : ` ${head.index + 1}`;
    const op = head.name === 'transaction' ? `Operazione${n}` : 'Attività';
    const partyAt = steps.findIndex((s) => PARTY_KEYS.test(s.name));
    if (partyAt > 0) {
      const p = steps[partyAt]!;
      const inner = steps.slice(partyAt + 1, -1).map((s) => labelOf(s.name)).filter((x) => x !== 'Parte');
      return { section: 'parties', group: [op, `${labelOf(p.name)}${p.index !== null ? ` ${p.index + 1}` : ''}`, ...inner].join(' · '), label };
    }
    const inner = steps.slice(1, -1).map((s) => labelOf(s.name));
    return { section: head.name === 'transaction' ? 'transactions' : 'activity', group: [op, ...inner].join(' · '), label };
  }
  const inner = steps.slice(0, -1).map((s) => `${labelOf(s.name)}${s.index !== null && s.index > 0 ? ` ${s.index + 1}` : ''}`);
  return { section: 'report', group: inner.length ? inner.join(' · ') : 'Intestazione', label };
}

/** The rows by section, then by group, in the content's order. */
export function contentSections<R extends { path: string }>(rows: readonly R[]) {
  const order: ContentSection[] = ['report', 'transactions', 'parties', 'activity'];
  const sections = new Map<ContentSection, Map<string, (R & { label: string })[]>>();
  for (const r of rows) {
    const { section, group, label } = placeOf(r.path);
    const groups = sections.get(section) ?? new Map<string, (R & { label: string })[]>();
    sections.set(section, groups);
    groups.set(group, [...(groups.get(group) ?? []), { ...r, label }]);
  }
  return order.filter((s) => sections.has(s)).map((s) => ({
    key: s, label: CONTENT_SECTION_LABELS[s], groups: [...sections.get(s)!].map(([label, items]) => ({ label, rows: items })),
  }));
}
