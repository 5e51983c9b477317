/**
 * A goAML jurisdiction is configuration: which schema file, which code lists (loaded from the
 * FIU's lookup tables as data), which report codes with their kind, which fields are
 * mandatory beyond the schema. Adding an FIU adds an entry here and its files, no code.
 * Paths are relative to the goAML data directory (config `goamlDataDir`).
 */
export type ReportKind = 'transaction' | 'activity';

/** The code lists a rule checks, and the goAML element names whose values must come from each. */
export const CODE_FIELDS = {
  countries: ['country_code', 'from_country', 'to_country', 'nationality1', 'nationality2', 'nationality3', 'residence',
    'issue_country', 'incorporation_country_code', 'passport_country', 'country'],
  currencies: ['currency_code_local', 'currency_code', 'foreign_currency_code'],
  funds: ['from_funds_code', 'to_funds_code'],
  transmode: ['transmode_code'],
  indicators: ['indicator'],
  // 'role' is not listed: the name means a director's role in one place and a transaction
  // party's in another (different enumerations); the schema checks both.
  partyRoles: [],
  itemTypes: ['item_type'],
  itemStatus: ['status_code'],
  legalForms: ['incorporation_legal_form'],
} as const;
export type CodeListName = keyof typeof CODE_FIELDS;

/** Amounts that must be positive (a balance may be negative: not listed). */
export const AMOUNT_FIELDS = ['amount_local', 'foreign_amount', 'estimated_value', 'disposed_value'] as const;

export interface JurisdictionConfig {
  id: string;
  label: string;
  fiu: string;
  schemaVersion: string;
  schemaFile: string;
  /** One JSON file per code list: an array of { code, label }. */
  lookups: Partial<Record<CodeListName, string>>;
  localCurrency: string;
  /** Report codes accepted by this FIU, with what the report must carry. */
  reportCodes: Record<string, { label: string; kind: ReportKind }>;
  /** Paths (dot notation below <report>) that must be filled, beyond what the schema requires. */
  mandatory: readonly string[];
}

const UAE_LOOKUPS = 'vyttah-uae-5.0.2/lookups';

export const GOAML_JURISDICTIONS: readonly JurisdictionConfig[] = [
  {
    id: 'ae-goaml-5.0.2',
    label: 'goAML 5.0.2 (UAE FIU)',
    fiu: 'UAE Financial Intelligence Unit',
    schemaVersion: '5.0.2',
    // The FIU's schema with its two regular expressions fixed for strict XSD 1.0 (PROVENANCE.txt).
    schemaFile: 'vyttah-uae-5.0.2/goAMLSchema.patched.xsd',
    lookups: {
      countries: `${UAE_LOOKUPS}/countries.json`, currencies: `${UAE_LOOKUPS}/currencies.json`,
      funds: `${UAE_LOOKUPS}/funds.json`, transmode: `${UAE_LOOKUPS}/transmode.json`,
      indicators: `${UAE_LOOKUPS}/report_indicators.json`, partyRoles: `${UAE_LOOKUPS}/party_roles.json`,
      itemTypes: `${UAE_LOOKUPS}/item_types.json`, itemStatus: `${UAE_LOOKUPS}/item_status.json`,
      legalForms: `${UAE_LOOKUPS}/legal_forms.json`,
    },
    localCurrency: 'AED',
    reportCodes: {
      STR: { label: 'Suspicious Transaction Report', kind: 'transaction' },
      SAR: { label: 'Suspicious Activity Report', kind: 'activity' },
      AIF: { label: 'Additional Information File', kind: 'activity' },
      AIFT: { label: 'Additional Information File with transactions', kind: 'transaction' },
      ECDD: { label: 'Enhanced CDD report', kind: 'activity' },
      ECDDT: { label: 'Enhanced CDD report with transactions', kind: 'transaction' },
      DPMSR: { label: 'Dealers in precious metals and stones report', kind: 'activity' },
    },
    mandatory: ['rentity_id', 'entity_reference', 'submission_date', 'currency_code_local', 'reporting_person'],
  },
];

export const jurisdictionConfig = (id: string) => GOAML_JURISDICTIONS.find((j) => j.id === id);
export const JURISDICTION_IDS = GOAML_JURISDICTIONS.map((j) => j.id);
