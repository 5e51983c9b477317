import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import { applicableSteps } from './onboarding.schemas';

/** The wizard's steps, in order; which of them a case walks through depends on its subject type. */
export const STEP_TITLES: Record<number, string> = {
  0: 'Tipo di cliente',
  1: 'Dati del cliente',
  2: 'Titolari effettivi',
  3: 'Documenti d\'identità',
  4: 'Documenti della società',
  5: 'Adeguata verifica',
  6: 'Paesi di operatività',
  7: 'Wallet e travel rule',
  8: 'Riepilogo e invio',
};
export const LAST_STEP = 8;

export const stepUrl = (n: number) => `/onboarding/step/${n}`;

/** The step itself when it applies, else the next one that does (a skipped step redirects forward). */
export function applicableFrom(subjectType: SubjectType | null, n: number): number {
  return applicableSteps(subjectType).find((s) => s >= n) ?? LAST_STEP;
}

export function nextStep(subjectType: SubjectType | null, n: number): number {
  return applicableSteps(subjectType).find((s) => s > n) ?? LAST_STEP;
}

export function previousStep(subjectType: SubjectType | null, n: number): number | null {
  const before = applicableSteps(subjectType).filter((s) => s < n);
  return before.length ? before[before.length - 1]! : null;
}

/** The progress indicator: the applicable steps with their position and whether each is the current one. */
export function progress(subjectType: SubjectType | null, current: number) {
  const steps = applicableSteps(subjectType);
  return {
    items: steps.map((n, i) => ({ n, numero: i + 1, titolo: STEP_TITLES[n]!, url: stepUrl(n), current: n === current, done: n < current })),
    position: steps.indexOf(current) + 1,
    total: steps.length,
  };
}
