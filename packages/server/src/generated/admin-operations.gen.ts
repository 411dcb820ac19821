// This file is generated from openapi.yaml by scripts/generate.mjs. Do not edit.
import type * as Contract from './types.gen.js';

/**
 * Every operation tagged `admin`, by operationId: `data` and `responses`, its generated request and answers;
 * `defaulted`, the query and JSON body fields the contract gives a default; `raw`, true when a success is not
 * `application/json` or declares headers.
 */
export interface AdminOperations {
  /** `GET /api/admin/enrollments` */
  listEnrollments: {
    data: Contract.ListEnrollmentsData;
    responses: Contract.ListEnrollmentsResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/enrollments` */
  createEnrollment: {
    data: Contract.CreateEnrollmentData;
    responses: Contract.CreateEnrollmentResponses;
    defaulted: 'systemGroups' | 'tags';
    raw: false;
  };
  /** `POST /api/admin/enrollments/{enrollmentId}/revoke` */
  revokeEnrollment: {
    data: Contract.RevokeEnrollmentData;
    responses: Contract.RevokeEnrollmentResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/session` */
  getAdminSession: {
    data: Contract.GetAdminSessionData;
    responses: Contract.GetAdminSessionResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/session` */
  signIn: {
    data: Contract.SignInData;
    responses: Contract.SignInResponses;
    defaulted: never;
    raw: true;
  };
  /** `DELETE /api/admin/session` */
  signOut: {
    data: Contract.SignOutData;
    responses: Contract.SignOutResponses;
    defaulted: never;
    raw: true;
  };
  /** `GET /api/admin/session/options` */
  getSignInOptions: {
    data: Contract.GetSignInOptionsData;
    responses: Contract.GetSignInOptionsResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/session/sso` */
  startSsoSignIn: {
    data: Contract.StartSsoSignInData;
    responses: Record<never, never>;
    defaulted: never;
    raw: true;
  };
  /** `GET /api/admin/session/sso/callback` */
  finishSsoSignIn: {
    data: Contract.FinishSsoSignInData;
    responses: Record<never, never>;
    defaulted: never;
    raw: true;
  };
  /** `GET /api/admin/session/tokens` */
  listMyTokens: {
    data: Contract.ListMyTokensData;
    responses: Contract.ListMyTokensResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/session/tokens` */
  createMyToken: {
    data: Contract.CreateMyTokenData;
    responses: Contract.CreateMyTokenResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/session/tokens/{tokenId}/revoke` */
  revokeMyToken: {
    data: Contract.RevokeMyTokenData;
    responses: Contract.RevokeMyTokenResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/users` */
  listUsers: {
    data: Contract.ListUsersData;
    responses: Contract.ListUsersResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/users` */
  createUser: {
    data: Contract.CreateUserData;
    responses: Contract.CreateUserResponses;
    defaulted: never;
    raw: false;
  };
  /** `PATCH /api/admin/users/{userId}` */
  updateUser: {
    data: Contract.UpdateUserData;
    responses: Contract.UpdateUserResponses;
    defaulted: never;
    raw: false;
  };
  /** `DELETE /api/admin/users/{userId}` */
  deleteUser: {
    data: Contract.DeleteUserData;
    responses: Contract.DeleteUserResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/tokens` */
  listAdminTokens: {
    data: Contract.ListAdminTokensData;
    responses: Contract.ListAdminTokensResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/tokens` */
  createServiceToken: {
    data: Contract.CreateServiceTokenData;
    responses: Contract.CreateServiceTokenResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/tokens/{tokenId}/revoke` */
  revokeAdminToken: {
    data: Contract.RevokeAdminTokenData;
    responses: Contract.RevokeAdminTokenResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/audit-events` */
  listAuditEvents: {
    data: Contract.ListAuditEventsData;
    responses: Contract.ListAuditEventsResponses;
    defaulted: 'limit';
    raw: false;
  };
  /** `GET /api/admin/hosts` */
  listHosts: {
    data: Contract.ListHostsData;
    responses: Contract.ListHostsResponses;
    defaulted: 'limit' | 'offset' | 'state' | 'sort' | 'order';
    raw: false;
  };
  /** `GET /api/admin/hosts/{hostRecordId}` */
  getHost: {
    data: Contract.GetHostData;
    responses: Contract.GetHostResponses;
    defaulted: 'historyLimit';
    raw: false;
  };
  /** `DELETE /api/admin/hosts/{hostRecordId}` */
  deleteHost: {
    data: Contract.DeleteHostData;
    responses: Contract.DeleteHostResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/hosts/{hostRecordId}/identity/accept` */
  acceptHostIdentity: {
    data: Contract.AcceptHostIdentityData;
    responses: Contract.AcceptHostIdentityResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/hosts/{hostRecordId}/decommission` */
  decommissionHost: {
    data: Contract.DecommissionHostData;
    responses: Contract.DecommissionHostResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/hosts/{hostRecordId}/reactivate` */
  reactivateHost: {
    data: Contract.ReactivateHostData;
    responses: Contract.ReactivateHostResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/hosts/{hostRecordId}/merge` */
  mergeHosts: {
    data: Contract.MergeHostsData;
    responses: Contract.MergeHostsResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/hosts/bulk-state` */
  changeHostStates: {
    data: Contract.ChangeHostStatesData;
    responses: Contract.ChangeHostStatesResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/reports` */
  listReports: {
    data: Contract.ListReportsData;
    responses: Contract.ListReportsResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `GET /api/admin/reports/{reportId}` */
  getReport: {
    data: Contract.GetReportData;
    responses: Contract.GetReportResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/reports/{reportId}/raw` */
  getRawReport: {
    data: Contract.GetRawReportData;
    responses: Contract.GetRawReportResponses;
    defaulted: never;
    raw: true;
  };
  /** `GET /api/admin/reports/{reportId}/diff` */
  getReportDiff: {
    data: Contract.GetReportDiffData;
    responses: Contract.GetReportDiffResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/keys` */
  listLicenseKeys: {
    data: Contract.ListLicenseKeysData;
    responses: Contract.ListLicenseKeysResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/keys` */
  createLicenseKey: {
    data: Contract.CreateLicenseKeyData;
    responses: Contract.CreateLicenseKeyResponses;
    defaulted: never;
    raw: false;
  };
  /** `PATCH /api/admin/keys/{keyId}` */
  updateLicenseKey: {
    data: Contract.UpdateLicenseKeyData;
    responses: Contract.UpdateLicenseKeyResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/keys/{keyId}/revoke` */
  revokeLicenseKey: {
    data: Contract.RevokeLicenseKeyData;
    responses: Contract.RevokeLicenseKeyResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/keys/{keyId}/rotate` */
  rotateLicenseKey: {
    data: Contract.RotateLicenseKeyData;
    responses: Contract.RotateLicenseKeyResponses;
    defaulted: 'graceSeconds';
    raw: false;
  };
  /** `GET /api/admin/overview` */
  getOverview: {
    data: Contract.GetOverviewData;
    responses: Contract.GetOverviewResponses;
    defaulted: 'staleDays';
    raw: false;
  };
  /** `GET /api/admin/hosts/{hostRecordId}/findings` */
  listHostFindings: {
    data: Contract.ListHostFindingsData;
    responses: Contract.ListHostFindingsResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/people` */
  listPeople: {
    data: Contract.ListPeopleData;
    responses: Contract.ListPeopleResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/findings/time-to-fix` */
  getTimeToFix: {
    data: Contract.GetTimeToFixData;
    responses: Contract.GetTimeToFixResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/findings/tracked` */
  listTrackedFindings: {
    data: Contract.ListTrackedFindingsData;
    responses: Contract.ListTrackedFindingsResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `PATCH /api/admin/findings/{findingId}` */
  updateFinding: {
    data: Contract.UpdateFindingData;
    responses: Contract.UpdateFindingResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/findings` */
  listFindings: {
    data: Contract.ListFindingsData;
    responses: Contract.ListFindingsResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `GET /api/admin/facets` */
  listFacets: {
    data: Contract.ListFacetsData;
    responses: Contract.ListFacetsResponses;
    defaulted: 'limit';
    raw: false;
  };
  /** `GET /api/admin/rejections` */
  listRejections: {
    data: Contract.ListRejectionsData;
    responses: Contract.ListRejectionsResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `GET /api/admin/policies` */
  listPolicies: {
    data: Contract.ListPoliciesData;
    responses: Contract.ListPoliciesResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/policies` */
  createPolicy: {
    data: Contract.CreatePolicyData;
    responses: Contract.CreatePolicyResponses;
    defaulted: 'enabled';
    raw: false;
  };
  /** `POST /api/admin/policies/baseline` */
  enableBaselinePolicy: {
    data: Contract.EnableBaselinePolicyData;
    responses: Contract.EnableBaselinePolicyResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/policies/baseline/preview` */
  previewBaselinePolicy: {
    data: Contract.PreviewBaselinePolicyData;
    responses: Contract.PreviewBaselinePolicyResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/policies/preview` */
  previewPolicy: {
    data: Contract.PreviewPolicyData;
    responses: Contract.PreviewPolicyResponses;
    defaulted: 'enabled';
    raw: false;
  };
  /** `GET /api/admin/policies/{policyId}` */
  getPolicy: {
    data: Contract.GetPolicyData;
    responses: Contract.GetPolicyResponses;
    defaulted: never;
    raw: false;
  };
  /** `PUT /api/admin/policies/{policyId}` */
  updatePolicy: {
    data: Contract.UpdatePolicyData;
    responses: Contract.UpdatePolicyResponses;
    defaulted: 'enabled';
    raw: false;
  };
  /** `DELETE /api/admin/policies/{policyId}` */
  deletePolicy: {
    data: Contract.DeletePolicyData;
    responses: Contract.DeletePolicyResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/policies/{policyId}/results` */
  listPolicyResults: {
    data: Contract.ListPolicyResultsData;
    responses: Contract.ListPolicyResultsResponses;
    defaulted: 'limit' | 'offset' | 'sort' | 'order';
    raw: false;
  };
  /** `GET /api/admin/hosts/{hostRecordId}/compliance` */
  getHostCompliance: {
    data: Contract.GetHostComplianceData;
    responses: Contract.GetHostComplianceResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/waivers` */
  listWaivers: {
    data: Contract.ListWaiversData;
    responses: Contract.ListWaiversResponses;
    defaulted: 'includeExpired';
    raw: false;
  };
  /** `POST /api/admin/waivers` */
  createWaiver: {
    data: Contract.CreateWaiverData;
    responses: Contract.CreateWaiverResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/waivers/bulk` */
  createWaivers: {
    data: Contract.CreateWaiversData;
    responses: Contract.CreateWaiversResponses;
    defaulted: never;
    raw: false;
  };
  /** `DELETE /api/admin/waivers/{waiverId}` */
  deleteWaiver: {
    data: Contract.DeleteWaiverData;
    responses: Contract.DeleteWaiverResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/webhooks` */
  listWebhooks: {
    data: Contract.ListWebhooksData;
    responses: Contract.ListWebhooksResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/webhooks` */
  createWebhook: {
    data: Contract.CreateWebhookData;
    responses: Contract.CreateWebhookResponses;
    defaulted: 'format' | 'enabled' | 'staleDays' | 'regressionThreshold' | 'maxDeliveriesPerMinute';
    raw: false;
  };
  /** `GET /api/admin/webhooks/{webhookId}` */
  getWebhook: {
    data: Contract.GetWebhookData;
    responses: Contract.GetWebhookResponses;
    defaulted: never;
    raw: false;
  };
  /** `PUT /api/admin/webhooks/{webhookId}` */
  updateWebhook: {
    data: Contract.UpdateWebhookData;
    responses: Contract.UpdateWebhookResponses;
    defaulted: 'format' | 'enabled' | 'staleDays' | 'regressionThreshold' | 'maxDeliveriesPerMinute';
    raw: false;
  };
  /** `DELETE /api/admin/webhooks/{webhookId}` */
  deleteWebhook: {
    data: Contract.DeleteWebhookData;
    responses: Contract.DeleteWebhookResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/webhooks/{webhookId}/test` */
  sendTestWebhookEvent: {
    data: Contract.SendTestWebhookEventData;
    responses: Contract.SendTestWebhookEventResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/webhooks/{webhookId}/deliveries` */
  listWebhookDeliveries: {
    data: Contract.ListWebhookDeliveriesData;
    responses: Contract.ListWebhookDeliveriesResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `POST /api/admin/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver` */
  redeliverWebhookDelivery: {
    data: Contract.RedeliverWebhookDeliveryData;
    responses: Contract.RedeliverWebhookDeliveryResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/exports/hosts` */
  exportHosts: {
    data: Contract.ExportHostsData;
    responses: Contract.ExportHostsResponses;
    defaulted: 'state' | 'sort' | 'order' | 'format';
    raw: true;
  };
  /** `GET /api/admin/exports/findings` */
  exportFindings: {
    data: Contract.ExportFindingsData;
    responses: Contract.ExportFindingsResponses;
    defaulted: 'format';
    raw: true;
  };
  /** `GET /api/admin/exports/hosts/{hostRecordId}/history` */
  exportHostHistory: {
    data: Contract.ExportHostHistoryData;
    responses: Contract.ExportHostHistoryResponses;
    defaulted: 'format';
    raw: true;
  };
  /** `GET /api/admin/exports/finding-states` */
  exportFindingStates: {
    data: Contract.ExportFindingStatesData;
    responses: Contract.ExportFindingStatesResponses;
    defaulted: 'format';
    raw: true;
  };
  /** `GET /api/admin/compliance/history` */
  getComplianceHistory: {
    data: Contract.GetComplianceHistoryData;
    responses: Contract.GetComplianceHistoryResponses;
    defaulted: 'interval';
    raw: false;
  };
  /** `GET /api/admin/exports/compliance-history` */
  exportComplianceHistory: {
    data: Contract.ExportComplianceHistoryData;
    responses: Contract.ExportComplianceHistoryResponses;
    defaulted: 'interval' | 'format';
    raw: true;
  };
  /** `GET /api/admin/controls` */
  listControls: {
    data: Contract.ListControlsData;
    responses: Contract.ListControlsResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/controls/import` */
  importControls: {
    data: Contract.ImportControlsData;
    responses: Contract.ImportControlsResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/digest-schedules` */
  listDigestSchedules: {
    data: Contract.ListDigestSchedulesData;
    responses: Contract.ListDigestSchedulesResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/digest-schedules` */
  createDigestSchedule: {
    data: Contract.CreateDigestScheduleData;
    responses: Contract.CreateDigestScheduleResponses;
    defaulted: never;
    raw: false;
  };
  /** `DELETE /api/admin/digest-schedules/{scheduleId}` */
  deleteDigestSchedule: {
    data: Contract.DeleteDigestScheduleData;
    responses: Contract.DeleteDigestScheduleResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/digest-schedules/{scheduleId}/issue` */
  issueDigest: {
    data: Contract.IssueDigestData;
    responses: Contract.IssueDigestResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/digests` */
  listDigests: {
    data: Contract.ListDigestsData;
    responses: Contract.ListDigestsResponses;
    defaulted: 'limit' | 'offset';
    raw: false;
  };
  /** `GET /api/admin/digests/{digestId}` */
  getDigest: {
    data: Contract.GetDigestData;
    responses: Contract.GetDigestResponses;
    defaulted: never;
    raw: false;
  };
  /** `POST /api/admin/digests/{digestId}/resend` */
  resendDigest: {
    data: Contract.ResendDigestData;
    responses: Contract.ResendDigestResponses;
    defaulted: never;
    raw: false;
  };
  /** `GET /api/admin/exports/audit-events` */
  exportAuditEvents: {
    data: Contract.ExportAuditEventsData;
    responses: Contract.ExportAuditEventsResponses;
    defaulted: 'format';
    raw: true;
  };
}

/** The admin roles, lowest first: each includes what the ones before it may do. */
export const ADMIN_ROLES = ['viewer', 'operator', 'admin'] as const;

/** The role each admin operation requires (its `x-required-role`); `none` for those anyone may call. */
export const ADMIN_OPERATION_ROLES = {
  listEnrollments: 'viewer',
  createEnrollment: 'operator',
  revokeEnrollment: 'operator',
  getAdminSession: 'viewer',
  signIn: 'none',
  signOut: 'none',
  getSignInOptions: 'none',
  startSsoSignIn: 'none',
  finishSsoSignIn: 'none',
  listMyTokens: 'viewer',
  createMyToken: 'viewer',
  revokeMyToken: 'viewer',
  listUsers: 'admin',
  createUser: 'admin',
  updateUser: 'admin',
  deleteUser: 'admin',
  listAdminTokens: 'admin',
  createServiceToken: 'admin',
  revokeAdminToken: 'admin',
  listAuditEvents: 'admin',
  listHosts: 'viewer',
  getHost: 'viewer',
  deleteHost: 'admin',
  acceptHostIdentity: 'operator',
  decommissionHost: 'operator',
  reactivateHost: 'operator',
  mergeHosts: 'operator',
  changeHostStates: 'operator',
  listReports: 'viewer',
  getReport: 'viewer',
  getRawReport: 'viewer',
  getReportDiff: 'viewer',
  listLicenseKeys: 'viewer',
  createLicenseKey: 'admin',
  updateLicenseKey: 'admin',
  revokeLicenseKey: 'admin',
  rotateLicenseKey: 'admin',
  getOverview: 'viewer',
  listHostFindings: 'viewer',
  listPeople: 'operator',
  getTimeToFix: 'viewer',
  listTrackedFindings: 'viewer',
  updateFinding: 'operator',
  listFindings: 'viewer',
  listFacets: 'viewer',
  listRejections: 'viewer',
  listPolicies: 'viewer',
  createPolicy: 'admin',
  enableBaselinePolicy: 'admin',
  previewBaselinePolicy: 'operator',
  previewPolicy: 'operator',
  getPolicy: 'viewer',
  updatePolicy: 'admin',
  deletePolicy: 'admin',
  listPolicyResults: 'viewer',
  getHostCompliance: 'viewer',
  listWaivers: 'viewer',
  createWaiver: 'operator',
  createWaivers: 'operator',
  deleteWaiver: 'operator',
  listWebhooks: 'viewer',
  createWebhook: 'admin',
  getWebhook: 'viewer',
  updateWebhook: 'admin',
  deleteWebhook: 'admin',
  sendTestWebhookEvent: 'operator',
  listWebhookDeliveries: 'viewer',
  redeliverWebhookDelivery: 'operator',
  exportHosts: 'viewer',
  exportFindings: 'viewer',
  exportHostHistory: 'viewer',
  exportFindingStates: 'viewer',
  getComplianceHistory: 'viewer',
  exportComplianceHistory: 'viewer',
  listControls: 'viewer',
  importControls: 'admin',
  listDigestSchedules: 'viewer',
  createDigestSchedule: 'admin',
  deleteDigestSchedule: 'admin',
  issueDigest: 'operator',
  listDigests: 'viewer',
  getDigest: 'viewer',
  resendDigest: 'operator',
  exportAuditEvents: 'admin',
} as const satisfies Record<string, (typeof ADMIN_ROLES)[number] | 'none'>;
