import { defineList } from '../../kit/list';
import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import type { OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';

/** The customer's name as reviewers read it: a company's denomination, or a person's name and surname. */
export const DENOMINAZIONE = "coalesce(nullif(anagrafe->>'denominazione', ''), nullif(trim(concat_ws(' ', anagrafe->>'nome', anagrafe->>'cognome')), ''))";
const LIST_COLUMNS = ['id', 'stato', 'tipo_soggetto', 'email', 'canale', 'risk_score', 'risk_classe', 'pep', 'submitted_at', 'created_at', 'updated_at', 'cod_anagrafe', 'approved_by_username'];

/**
 * The reviewers' list of onboarding cases. submitted_at and risk_score may be null (a draft): they
 * come last in both directions, as reviewers expect (the highest risk first, then the unscored).
 */
export const onboardingCasesList = defineList<{ stato: OnboardingStatus; rischio: string; tipo_soggetto: SubjectType; from: string; to: string }>({
  name: 'onboarding.cases',
  table: 'onboarding_cases',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [...LIST_COLUMNS, db.raw(`${DENOMINAZIONE} as denominazione`)],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    submitted_at: [{ column: 'submitted_at', type: 'timestamp', nullable: true, nulls: 'last' }, { column: 'id', type: 'uuid' }],
    risk_score: [{ column: 'risk_score', type: 'integer', nullable: true, nulls: 'last' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'submitted' },
    rischio: { apply: (qb, v) => qb.where('risk_classe', v), sample: 'alto' },
    tipo_soggetto: { apply: (qb, v) => qb.where('tipo_soggetto', v), sample: 'societa' },
    // Italian calendar days, both inclusive.
    from: { apply: (qb, v) => qb.whereRaw("created_at >= (?::date)::timestamp at time zone 'Europe/Rome'", [v]), sample: '2026-01-01' },
    to: { apply: (qb, v) => qb.whereRaw("created_at < (?::date + 1)::timestamp at time zone 'Europe/Rome'", [v]), sample: '2026-01-02' },
  },
  search: {
    apply: (qb, like, term) => qb.where((w) => w.whereILike('email', like).orWhereRaw(`${DENOMINAZIONE} ilike ?`, [like])
      .orWhereRaw("anagrafe->>'codice_fiscale' ilike ?", [like]).orWhereRaw("anagrafe->>'partita_iva' ilike ?", [like])
      .orWhereILike('cod_anagrafe', like).orWhereRaw('id::text = ?', [term.toLowerCase()])),
    sample: 'rossi',
  },
  limit: { default: 25, max: 200 },
});
