import { defineList } from '../../../kit/list';
import type { RiskClass, RiskMotivo } from '../../../../workflows/risk/risk-assessment.contract';
import type { RiskAssessmentStatus } from '../../../../workflows/risk/risk-assessment.machine';

/**
 * The assessments list (/api/risk/assessments, the pages of part VIEWS): the indexes
 * rischio_valutazioni_list, _stato, _anagrafe, _classe and the unique code serve it.
 * `confermabile_da` is a user id: overrides waiting for confirmation that this user did not
 * propose (four-eyes); the API's `da_confermare=true` means the caller.
 */
export const assessmentsList = defineList<{ stato: RiskAssessmentStatus; classe: RiskClass; cod_anagrafe: string; motivo: RiskMotivo; confermabile_da: string }>({
  name: 'risk-assessments',
  table: 'rischio_valutazioni',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    cod_valutazione: [{ column: 'cod_valutazione', type: 'text' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'override_pending' },
    // The class the assessment gives (released or being released); archived ones are history.
    classe: { apply: (qb, v) => qb.where('classe_effettiva', v).whereNot('stato', 'archived'), sample: 'alto' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    motivo: { apply: (qb, v) => qb.where('motivo', v), sample: 'manuale' },
    confermabile_da: { apply: (qb, v) => qb.where('stato', 'override_pending').whereNot('override_by', v), sample: '00000000-0000-4000-8000-000000000001' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_valutazione', like).orWhereILike('cod_anagrafe', like)),
    sample: 'VAL-0001',
  },
  limit: { default: 25, max: 200 },
});
