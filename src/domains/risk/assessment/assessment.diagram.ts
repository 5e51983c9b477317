import { stateDiagramView, type StateDiagramView } from '../../../http/state-diagram';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { riskAssessmentMachine } from '../../../../workflows/risk/risk-assessment.machine';
import { assessmentAllowedActions } from './assessment.commands';
import { VALUTAZIONE_AZIONE_LABELS, VALUTAZIONE_STATO_LABELS } from './assessment.labels';
import type { AssessmentRow } from './assessment.repo';

/** The state diagram of an assessment for its page (as the EDD page shows its own): where it is, what this user may do. */
export function assessmentDiagram(row: Pick<AssessmentRow, 'stato' | 'override_by'>, actor: MachineActor): Promise<StateDiagramView> {
  return stateDiagramView(riskAssessmentMachine, {
    current: row.stato, allowed: assessmentAllowedActions(row, actor),
    labels: { states: VALUTAZIONE_STATO_LABELS, actions: VALUTAZIONE_AZIONE_LABELS }, title: 'Diagramma degli stati della valutazione del rischio',
  });
}
