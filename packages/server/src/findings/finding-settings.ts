/**
 * Who may accept a finding's risk: whether the approver must be another person than the one asking
 * (`--finding-approval distinct`, the default, or `any`), and the role accepting needs (`--finding-accept-role`).
 */
export interface FindingAcceptanceSettings {
  approval: 'distinct' | 'any';
  acceptRole: 'operator' | 'admin';
}

export const DEFAULT_FINDING_ACCEPTANCE: FindingAcceptanceSettings = { approval: 'distinct', acceptRole: 'operator' };
