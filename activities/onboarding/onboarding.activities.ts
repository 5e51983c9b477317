import type { ActivityDeps } from '../deps';
import type {
  DocumentMeta, OnboardingEdit, OnboardingNewData, OnboardingStep, RiskResult, SigningDocument, ValidationIssue, WalletSummary,
} from '../../workflows/onboarding/onboarding.contract';
import type { OnboardingStatus, WalletStatus } from '../../workflows/onboarding/onboarding.machine';

// SKELETON: signatures fixed by the workflow; bodies are being implemented (issue 3).
const todo = (name: string): never => { throw new Error(`${name}: not implemented yet`); };

export function createOnboardingActivities(_deps: ActivityDeps) {
  return {
    async createOnboardingProjection(_p: OnboardingStep & { data: OnboardingNewData; workflowId: string }): Promise<void> { todo('createOnboardingProjection'); },
    async applyOnboardingEdit(_p: OnboardingStep & { edit: OnboardingEdit }): Promise<{ wallet?: WalletSummary; document?: DocumentMeta }> { return todo('applyOnboardingEdit'); },
    async validateOnboarding(_p: OnboardingStep): Promise<{ ok: boolean; issues: ValidationIssue[] }> { return todo('validateOnboarding'); },
    async screenOnboardingSubjects(_p: OnboardingStep): Promise<{ matches: number; pep: boolean }> { return todo('screenOnboardingSubjects'); },
    async screenOnboardingWallets(_p: OnboardingStep): Promise<{ hits: number }> { return todo('screenOnboardingWallets'); },
    async scoreOnboardingRisk(_p: OnboardingStep): Promise<RiskResult> { return todo('scoreOnboardingRisk'); },
    async recordOnboardingTransition(_p: OnboardingStep & { action: string; from: OnboardingStatus; to: OnboardingStatus; extra: Record<string, unknown> }): Promise<void> { todo('recordOnboardingTransition'); },
    async prepareOnboardingSigning(_p: OnboardingStep & { purpose: 'dichiarazioni' | 'travel_rule' }): Promise<SigningDocument> { return todo('prepareOnboardingSigning'); },
    async sendOnboardingLink(_p: OnboardingStep & { purpose: 'info_request' | 'reminder' }): Promise<void> { todo('sendOnboardingLink'); },
    async notifyOnboardingReviewers(_p: OnboardingStep & { event: 'in_review' | 'pending_second_approval' }): Promise<void> { todo('notifyOnboardingReviewers'); },
    async recordWalletTransition(_p: OnboardingStep & { walletId: string; action: 'verify' | 'revoke'; from: WalletStatus; to: WalletStatus; reason: string | null }): Promise<void> { todo('recordWalletTransition'); },
    async materialiseOnboardingCustomer(_p: OnboardingStep & { firstApprover: string | null }): Promise<{ codAnagrafe: string; reviewId: string; reviewDueAt: string }> { return todo('materialiseOnboardingCustomer'); },
    async eraseOnboardingCase(_p: OnboardingStep): Promise<void> { todo('eraseOnboardingCase'); },
    async markCddReviewDue(_p: { codAzienda: string; reviewId: string; codAnagrafe: string }): Promise<void> { todo('markCddReviewDue'); },
  };
}
