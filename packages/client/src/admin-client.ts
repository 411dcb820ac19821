import {
  acceptHostIdentity,
  exportAuditEvents,
  exportFindingStates,
  exportComplianceHistory,
  getComplianceHistory,
  listDigestSchedules,
  createDigestSchedule,
  deleteDigestSchedule,
  issueDigest,
  listDigests,
  getDigest,
  resendDigest,
  listAuditEvents,
  createEnrollment,
  listEnrollments,
  revokeEnrollment,
  createLicenseKey,
  getAdminSession,
  getHost,
  createPolicy,
  deletePolicy,
  getPolicy,
  updatePolicy,
  createWaiver,
  createWaivers,
  createWebhook,
  deleteWaiver,
  deleteWebhook,
  getWebhook,
  updateWebhook,
  enableBaselinePolicy,
  previewBaselinePolicy,
  previewPolicy,
  exportFindings,
  exportHostHistory,
  exportHosts,
  getHostCompliance,
  getRawReport,
  listPolicies,
  listPolicyResults,
  listWaivers,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  sendTestWebhookEvent,
  getReport,
  getOverview,
  getReportDiff,
  listFacets,
  listFindings,
  listHosts,
  listLicenseKeys,
  listRejections,
  listReports,
  revokeLicenseKey,
  rotateLicenseKey,
  updateLicenseKey,
  listUsers,
  listPeople,
  createUser,
  updateUser,
  deleteUser,
  listAdminTokens,
  createServiceToken,
  revokeAdminToken,
  listMyTokens,
  createMyToken,
  revokeMyToken,
  changeHostStates,
  decommissionHost,
  deleteHost,
  mergeHosts,
  reactivateHost,
  listHostFindings,
  listTrackedFindings,
  getTimeToFix,
  updateFinding,
  listControls,
  importControls,
} from './generated/sdk.gen.js';
import type {
  ControlImportResult,
  ControlReport,
  FindingUpdate,
  ListHostFindingsData,
  ListTrackedFindingsData,
  TrackedFinding,
  TrackedFindingList,
  TrackedFindingPage,
  TimeToFix,
  HostStateChangeInput,
  HostStateChangeResult,
  AdminTokenList,
  EnrollmentList,
  NewEnrollment,
  NewEnrollmentRequest,
  NewAdminToken,
  NewPersonalTokenRequest,
  NewServiceTokenRequest,
  AuditEventPage,
  ExportAuditEventsData,
  ExportFindingStatesData,
  ComplianceHistory,
  Digest,
  DigestPage,
  DigestSchedule,
  DigestScheduleInput,
  DigestScheduleList,
  ListDigestsData,
  ExportComplianceHistoryData,
  GetComplianceHistoryData,
  ListAuditEventsData,
  NewUserRequest,
  User,
  UserChange,
  UserList,
  PersonList,
  AdminSession,
  HostCompliance,
  ListPolicyResultsData,
  ListWaiversData,
  ListWebhookDeliveriesData,
  NewWebhook,
  Policy,
  PolicyInput,
  PolicyList,
  PolicyPreview,
  PolicyResultPage,
  Waiver,
  WaiverBulkInput,
  WaiverBulkResult,
  WaiverInput,
  WaiverList,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookInput,
  WebhookList,
  Webhook,
  Facets,
  FindingGroupPage,
  GetHostData,
  GetOverviewData,
  Host,
  HostDetail,
  HostPage,
  LicenseKeySettings,
  LicenseKeyInfo,
  LicenseKeyList,
  ListFacetsData,
  ListFindingsData,
  ListHostsData,
  ListRejectionsData,
  ListReportsData,
  NewLicenseKey,
  NewLicenseKeyRequest,
  Overview,
  Problem,
  ReportDetail,
  ReportDiff,
  ReportPage,
  RejectionPage,
  RotatedLicenseKey,
  RotateLicenseKeyRequest,
} from './generated/types.gen.js';
import { ConflictError, InvalidAdminTokenError, NotFoundError, ServerError, type AuditClientError } from './errors.js';
import { bearerOnly } from './sdk.js';
import { commonErrorFor, createTransport, exchange, firstLine, type Answer, type TransportOptions } from './transport.js';

/** What a bearer token may hold (RFC 6750's b64token); anything else could not be sent in a header anyway. */
const BEARER_TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Where the server is, how to trust it, and the admin token to send. */
export interface AdminClientOptions extends TransportOptions {
  /** An admin token (`audit-server admin-tokens create`), sent as `Authorization: Bearer <token>`. */
  token: string;
}

/** Query of `listHosts`: paging and filters, as the contract names them. */
export type HostQuery = NonNullable<ListHostsData['query']>;
/** The host list's filters and order, which the hosts and findings exports take too (the findings export ignores the order). */
export type HostFilters = Omit<HostQuery, 'limit' | 'offset'>;
/** Query of `listFacets`: one field, values containing a text, how many per field. */
export type FacetQuery = NonNullable<ListFacetsData['query']>;
/** Query of `listReports`: paging and filters, as the contract names them. */
export type ReportQuery = NonNullable<ListReportsData['query']>;
/** Query of `listRejections`: paging and filters, as the contract names them. */
export type RejectionQuery = NonNullable<ListRejectionsData['query']>;
/** Query of `getHost`. */
export type HostDetailQuery = NonNullable<GetHostData['query']>;
/** Query of `getOverview`: when a host counts as stale. */
export type OverviewQuery = NonNullable<GetOverviewData['query']>;
/** Query of `listFindings`: paging and filters, as the contract names them. */
export type FindingQuery = NonNullable<ListFindingsData['query']>;

/** Query of `listPolicyResults`: paging and filters by rule and status. */
export type PolicyResultQuery = NonNullable<ListPolicyResultsData['query']>;
/** Query of `listWaivers`. */
export type WaiverQuery = NonNullable<ListWaiversData['query']>;
/** Query of `listWebhookDeliveries`. */
export type DeliveryQuery = NonNullable<ListWebhookDeliveriesData['query']>;
/** The audit trail's filters and paging. */
/** Query of `listTrackedFindings`: state, owner, group, kind, test id, age, and the page. */
export type TrackedFindingQuery = NonNullable<ListTrackedFindingsData['query']>;
/** The export of findings with their lifecycle: state, group, kind, test id, and the format. */
export type FindingStatesExportQuery = NonNullable<ExportFindingStatesData['query']>;
/** Query of `getComplianceHistory`: the window, the interval, and one policy, group or customer. */
export type ComplianceHistoryQuery = NonNullable<GetComplianceHistoryData['query']>;
/** The compliance history's export: the history's query and the format. */
export type ComplianceHistoryExportQuery = NonNullable<ExportComplianceHistoryData['query']>;
/** Query of `listHostFindings`: its state filter. */
export type HostFindingQuery = NonNullable<ListHostFindingsData['query']>;
export type AuditEventQuery = NonNullable<ListAuditEventsData['query']>;
/** The audit trail export's filters and format. */
export type AuditExportQuery = NonNullable<ExportAuditEventsData['query']>;

/** A client of one server's admin API (`/api/admin/`); every method resolves with the contract's type or throws. */
export interface AdminClient {
  /** The admin token this client signs in with: id, label and prefix, never the token. */
  getSession(): Promise<AdminSession>;
  /** The fleet at a glance: host counts, hardening index, trends, top findings, OS and Lynis mix, stale hosts. */
  getOverview(query?: OverviewQuery): Promise<Overview>;
  /** One page of hosts, most recently seen first unless `sort` says otherwise; filters combine. */
  listHosts(query?: HostQuery): Promise<HostPage>;
  /** One page of the warnings and suggestions of every host's latest report, most hosts affected first. */
  listFindings(query?: FindingQuery): Promise<FindingGroupPage>;
  /** The known groups, tags, operating systems, keys and customers, with their host counts, most hosts first. */
  listFacets(query?: FacetQuery): Promise<Facets>;
  /** A host with the hardening index of its newest reports. */
  getHost(hostRecordId: string, query?: HostDetailQuery): Promise<HostDetail>;
  /** One page of report metadata, newest first. */
  listReports(query?: ReportQuery): Promise<ReportPage>;
  /** A report's metadata and, for a Lynis report, its summary. */
  getReport(reportId: string): Promise<ReportDetail>;
  /** A report's text as stored (license keys redacted). */
  getRawReport(reportId: string): Promise<string>;
  /** What changed since the host's previous report, or between the report and `against`, another of its host's. */
  getReportDiff(reportId: string, against?: string): Promise<ReportDiff>;
  /** Every license key, oldest first (never the keys themselves). */
  listLicenseKeys(): Promise<LicenseKeyList>;
  /** Creates a license key; the answer is the only time the key itself is shown. */
  createLicenseKey(request?: NewLicenseKeyRequest): Promise<NewLicenseKey>;
  /** Revokes a license key; revoking a revoked key changes nothing. */
  revokeLicenseKey(keyId: string): Promise<LicenseKeyInfo>;
  /** Changes a license key's quotas of hosts (null: back to the server's default, or no maximum). */
  updateLicenseKey(keyId: string, settings: LicenseKeySettings): Promise<LicenseKeyInfo>;
  /** Accepts the `hostid2` of a host's flagged identity change (a 409 `ConflictError` when none names it). */
  acceptHostIdentity(hostRecordId: string, hostId2: string | null): Promise<Host>;
  /** Issues a new key for an old one, which keeps working for `graceSeconds` (server default: a day). */
  rotateLicenseKey(keyId: string, request?: RotateLicenseKeyRequest): Promise<RotatedLicenseKey>;
  /** One page of refused uploads and license checks, newest day first, with the client addresses they came from. */
  listRejections(query?: RejectionQuery): Promise<RejectionPage>;
  /** Every compliance policy with its hosts' statuses. */
  listPolicies(): Promise<PolicyList>;
  /** Creates a policy; a 400 (`BadRequestError`) names each rule whose expression does not check, and where. */
  createPolicy(policy: PolicyInput): Promise<Policy>;
  /** Creates the shipped baseline policy. */
  enableBaselinePolicy(): Promise<Policy>;
  /** How many hosts each rule of the shipped baseline would pass and fail, before it is enabled (nothing stored). */
  previewBaselinePolicy(): Promise<PolicyPreview>;
  /** How many hosts a policy would cover and fail, before it is saved (nothing stored); a 400 names each rule that does not check. */
  previewPolicy(policy: PolicyInput): Promise<PolicyPreview>;
  /** One policy, with its quarantine when the evaluator disabled it. */
  getPolicy(policyId: string): Promise<Policy>;
  /** Replaces a policy (enabling it clears its quarantine). */
  updatePolicy(policyId: string, policy: PolicyInput): Promise<Policy>;
  /** Deletes a policy with its results and waivers. */
  deletePolicy(policyId: string): Promise<void>;
  /** One page of each host's results on a policy's rules, failures first. */
  listPolicyResults(policyId: string, query?: PolicyResultQuery): Promise<PolicyResultPage>;
  /** A host's results on every policy and their recent changes. */
  getHostCompliance(hostRecordId: string): Promise<HostCompliance>;
  /** Waivers that have not expired (or all, with `includeExpired`). */
  listWaivers(query?: WaiverQuery): Promise<WaiverList>;
  /** Waives a rule or a whole policy for a host or a group until it expires. */
  createWaiver(waiver: WaiverInput): Promise<Waiver>;
  /** One waiver per host selected (by ids or by the host list's filters), all or none. */
  createWaivers(waivers: WaiverBulkInput): Promise<WaiverBulkResult>;
  /** Deletes a waiver: the results it covered count as failures or errors again. */
  deleteWaiver(waiverId: string): Promise<void>;
  /** Every webhook subscription (never its secret). */
  listWebhooks(): Promise<WebhookList>;
  /** Subscribes a URL; the answer is the only time the signing secret is shown. */
  createWebhook(webhook: WebhookInput): Promise<NewWebhook>;
  /** One subscription (never its secret). */
  getWebhook(webhookId: string): Promise<Webhook>;
  /** Replaces a subscription's URL, events and settings; its secret stays. */
  updateWebhook(webhookId: string, webhook: WebhookInput): Promise<Webhook>;
  /** Deletes a subscription with its delivery log. */
  deleteWebhook(webhookId: string): Promise<void>;
  /** One page of a subscription's delivery log, newest first. */
  listWebhookDeliveries(webhookId: string, query?: DeliveryQuery): Promise<WebhookDeliveryPage>;
  /** Queues a delivery to be sent again now. */
  redeliverWebhookDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery>;
  /** Queues a `webhook.test` event for this subscription alone (even when it is disabled); resolves with its delivery. */
  sendTestWebhookEvent(webhookId: string): Promise<WebhookDelivery>;
  /** `GET /api/admin/users`: every person's account. */
  listUsers(): Promise<UserList>;
  /** `GET /api/admin/people`: every enabled person's id, email and name, to give a finding's owner or approver (operator). */
  listPeople(): Promise<PersonList>;
  /** `POST /api/admin/users`. */
  createUser(user: NewUserRequest): Promise<User>;
  /** `PATCH /api/admin/users/{userId}`: the fields given. */
  updateUser(userId: string, change: UserChange): Promise<User>;
  /** `DELETE /api/admin/users/{userId}`: with its sessions and personal tokens. */
  deleteUser(userId: string): Promise<void>;
  /** `GET /api/admin/tokens`: every API token (never a token itself). */
  listAdminTokens(): Promise<AdminTokenList>;
  /** `POST /api/admin/tokens`: a service account's token, shown this once. */
  createServiceToken(request: NewServiceTokenRequest): Promise<NewAdminToken>;
  /** `POST /api/admin/tokens/{tokenId}/revoke`: any token. */
  revokeAdminToken(tokenId: string): Promise<void>;
  /** `GET /api/admin/session/tokens`: the signed-in person's own tokens. */
  listMyTokens(): Promise<AdminTokenList>;
  /** `POST /api/admin/session/tokens`: a personal token, shown this once. */
  createMyToken(request: NewPersonalTokenRequest): Promise<NewAdminToken>;
  /** `POST /api/admin/session/tokens/{tokenId}/revoke`. */
  revokeMyToken(tokenId: string): Promise<void>;
  /**
   * An export's text: the hosts or the findings (of the hosts `filters` select, every one without), or one host's
   * history, as CSV or JSON.
   */
  exportText(what: { hosts: true } | { findings: true } | { hostHistory: string }, format: 'csv' | 'json', filters?: HostFilters): Promise<string>;
  /** `GET /api/admin/audit-events`: one page of the audit trail, newest first. */
  listAuditEvents(query?: AuditEventQuery): Promise<AuditEventPage>;
  /** `GET /api/admin/exports/audit-events`: the audit trail's entries the filters select, oldest first, as CSV or JSON Lines. */
  exportAuditEvents(query: AuditExportQuery): Promise<string>;
  /** `GET /api/admin/enrollments`: every enrollment, newest first (never a secret). */
  listEnrollments(): Promise<EnrollmentList>;
  /** `POST /api/admin/enrollments`: a new enrollment, with its secret and one-line command (shown this once). */
  createEnrollment(request: NewEnrollmentRequest): Promise<NewEnrollment>;
  /** `POST /api/admin/enrollments/{enrollmentId}/revoke`: its command stops working; enrolled hosts keep reporting. */
  revokeEnrollment(enrollmentId: string): Promise<void>;
  /** `POST /api/admin/hosts/{hostRecordId}/decommission`: out of every fleet figure until it reports or is reactivated. */
  decommissionHost(hostRecordId: string): Promise<Host>;
  /** `POST /api/admin/hosts/{hostRecordId}/reactivate`: a decommissioned host counted again. */
  reactivateHost(hostRecordId: string): Promise<Host>;
  /** `POST /api/admin/hosts/{hostRecordId}/merge`: another host's reports, history and waivers move to this one. */
  mergeHosts(hostRecordId: string, otherHostRecordId: string): Promise<Host>;
  /** `POST /api/admin/hosts/bulk-state`: the hosts selected (by ids or by the list's filters) decommissioned or reactivated. */
  changeHostStates(change: HostStateChangeInput): Promise<HostStateChangeResult>;
  /** `DELETE /api/admin/hosts/{hostRecordId}`: the host and all its reports, for good. */
  deleteHost(hostRecordId: string): Promise<void>;
  /** `GET /api/admin/hosts/{id}/findings`: a host's findings with their lifecycle. */
  listHostFindings(hostRecordId: string, query?: HostFindingQuery): Promise<TrackedFindingList>;
  /** `GET /api/admin/findings/tracked`: findings across the fleet with their lifecycle, oldest first. */
  listTrackedFindings(query?: TrackedFindingQuery): Promise<TrackedFindingPage>;
  /** `PATCH /api/admin/findings/{id}`: acknowledge, reassign, accept or reopen a finding. */
  updateFinding(findingId: string, update: FindingUpdate): Promise<TrackedFinding>;
  /** `GET /api/admin/findings/time-to-fix`: how long findings take to be fixed, over a window (default the last 90 days). */
  getTimeToFix(query?: { from?: string; to?: string }): Promise<TimeToFix>;
  /** `GET /api/admin/exports/finding-states`: the fleet's findings with their lifecycle, oldest first, as CSV or JSON Lines. */
  exportFindingStates(query: FindingStatesExportQuery): Promise<string>;
  /** `GET /api/admin/compliance/history`: compliance and open findings per day or week (default the last 30 days). */
  getComplianceHistory(query?: ComplianceHistoryQuery): Promise<ComplianceHistory>;
  /** `GET /api/admin/exports/compliance-history`: the history, one row per interval and policy, as CSV or JSON Lines. */
  exportComplianceHistory(query: ComplianceHistoryExportQuery): Promise<string>;
  /** `GET /api/admin/digest-schedules`: recipients' addresses shown to admins only. */
  listDigestSchedules(): Promise<DigestScheduleList>;
  /** `POST /api/admin/digest-schedules`. */
  createDigestSchedule(schedule: DigestScheduleInput): Promise<DigestSchedule>;
  /** `DELETE /api/admin/digest-schedules/{scheduleId}`: its digests stay. */
  deleteDigestSchedule(scheduleId: string): Promise<void>;
  /** `POST /api/admin/digest-schedules/{scheduleId}/issue`: the digest over the period ending now. */
  issueDigest(scheduleId: string): Promise<Digest>;
  /** `GET /api/admin/digests`: newest first, with their delivery. */
  listDigests(query?: ListDigestsData['query']): Promise<DigestPage>;
  /** `GET /api/admin/digests/{digestId}`: with its figures. */
  getDigest(digestId: string): Promise<Digest>;
  /** `POST /api/admin/digests/{digestId}/resend`: a new round of attempts. */
  resendDigest(digestId: string): Promise<Digest>;
  /** `GET /api/admin/controls`: the frameworks, and the controls of `framework` with their hosts and evidence. */
  listControls(query?: { framework?: string }): Promise<ControlReport>;
  /** `POST /api/admin/controls/import`: a control mapping file (CSV), replacing the frameworks it names. */
  importControls(csv: string): Promise<ControlImportResult>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

/** Creates an admin client; TLS certificates are verified unless `ca` or `insecure` says otherwise. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const { token } = options;
  // Checked here because an invalid header value makes fetch throw a message that quotes it.
  if (typeof token !== 'string' || !BEARER_TOKEN_PATTERN.test(token)) {
    throw new TypeError('The admin token is empty or holds characters a bearer token cannot have');
  }
  // The generated SDK adds `Authorization: Bearer <token>` to the operations the contract secures with adminToken.
  const transport = createTransport(options, { auth: bearerOnly(token) });
  const answerOf = async (send: () => Promise<SdkResult>, successStatus: number): Promise<Answer> => {
    const answer = await exchange(send, token);
    if (answer.status === successStatus) return answer;
    throw errorFor(answer, options.baseUrl);
  };
  const json = async <T>(send: () => Promise<SdkResult>, successStatus: number) => parseJson<T>(await answerOf(send, successStatus));

  return {
    getSession: () => json<AdminSession>(() => getAdminSession({ ...transport.call() }), 200),
    getOverview: (query) => json<Overview>(() => getOverview({ ...transport.call(), query }), 200),
    listHosts: (query) => json<HostPage>(() => listHosts({ ...transport.call(), query }), 200),
    listFindings: (query) => json<FindingGroupPage>(() => listFindings({ ...transport.call(), query }), 200),
    listFacets: (query) => json<Facets>(() => listFacets({ ...transport.call(), query }), 200),
    getHost: (hostRecordId, query) => json<HostDetail>(() => getHost({ ...transport.call(), path: { hostRecordId }, query }), 200),
    listReports: (query) => json<ReportPage>(() => listReports({ ...transport.call(), query }), 200),
    getReport: (reportId) => json<ReportDetail>(() => getReport({ ...transport.call(), path: { reportId } }), 200),
    getRawReport: async (reportId) => (await answerOf(() => getRawReport({ ...transport.call(), path: { reportId } }), 200)).text,
    getReportDiff: (reportId, against) => json<ReportDiff>(() => getReportDiff({ ...transport.call(), path: { reportId }, query: { against } }), 200),
    listLicenseKeys: () => json<LicenseKeyList>(() => listLicenseKeys({ ...transport.call() }), 200),
    createLicenseKey: (request = {}) => json<NewLicenseKey>(() => createLicenseKey({ ...transport.call(), body: request }), 201),
    revokeLicenseKey: (keyId) => json<LicenseKeyInfo>(() => revokeLicenseKey({ ...transport.call(), path: { keyId } }), 200),
    updateLicenseKey: (keyId, settings) => json<LicenseKeyInfo>(() => updateLicenseKey({ ...transport.call(), path: { keyId }, body: settings }), 200),
    acceptHostIdentity: (hostRecordId, hostId2) =>
      json<Host>(() => acceptHostIdentity({ ...transport.call(), path: { hostRecordId }, body: { hostId2 } }), 200),
    rotateLicenseKey: (keyId, request = {}) => json<RotatedLicenseKey>(() => rotateLicenseKey({ ...transport.call(), path: { keyId }, body: request }), 201),
    listRejections: (query) => json<RejectionPage>(() => listRejections({ ...transport.call(), query }), 200),
    listPolicies: () => json<PolicyList>(() => listPolicies({ ...transport.call() }), 200),
    createPolicy: (policy) => json<Policy>(() => createPolicy({ ...transport.call(), body: policy }), 201),
    enableBaselinePolicy: () => json<Policy>(() => enableBaselinePolicy({ ...transport.call() }), 201),
    previewBaselinePolicy: () => json<PolicyPreview>(() => previewBaselinePolicy({ ...transport.call() }), 200),
    previewPolicy: (policy) => json<PolicyPreview>(() => previewPolicy({ ...transport.call(), body: policy }), 200),
    getPolicy: (policyId) => json<Policy>(() => getPolicy({ ...transport.call(), path: { policyId } }), 200),
    updatePolicy: (policyId, policy) => json<Policy>(() => updatePolicy({ ...transport.call(), path: { policyId }, body: policy }), 200),
    deletePolicy: async (policyId) => void (await answerOf(() => deletePolicy({ ...transport.call(), path: { policyId } }), 204)),
    listPolicyResults: (policyId, query) => json<PolicyResultPage>(() => listPolicyResults({ ...transport.call(), path: { policyId }, query }), 200),
    getHostCompliance: (hostRecordId) => json<HostCompliance>(() => getHostCompliance({ ...transport.call(), path: { hostRecordId } }), 200),
    listWaivers: (query) => json<WaiverList>(() => listWaivers({ ...transport.call(), query }), 200),
    createWaiver: (waiver) => json<Waiver>(() => createWaiver({ ...transport.call(), body: waiver }), 201),
    createWaivers: (waivers) => json<WaiverBulkResult>(() => createWaivers({ ...transport.call(), body: waivers }), 201),
    deleteWaiver: async (waiverId) => void (await answerOf(() => deleteWaiver({ ...transport.call(), path: { waiverId } }), 204)),
    listWebhooks: () => json<WebhookList>(() => listWebhooks({ ...transport.call() }), 200),
    createWebhook: (webhook) => json<NewWebhook>(() => createWebhook({ ...transport.call(), body: webhook }), 201),
    getWebhook: (webhookId) => json<Webhook>(() => getWebhook({ ...transport.call(), path: { webhookId } }), 200),
    updateWebhook: (webhookId, webhook) => json<Webhook>(() => updateWebhook({ ...transport.call(), path: { webhookId }, body: webhook }), 200),
    deleteWebhook: async (webhookId) => void (await answerOf(() => deleteWebhook({ ...transport.call(), path: { webhookId } }), 204)),
    listWebhookDeliveries: (webhookId, query) =>
      json<WebhookDeliveryPage>(() => listWebhookDeliveries({ ...transport.call(), path: { webhookId }, query }), 200),
    redeliverWebhookDelivery: (webhookId, deliveryId) =>
      json<WebhookDelivery>(() => redeliverWebhookDelivery({ ...transport.call(), path: { webhookId, deliveryId } }), 200),
    sendTestWebhookEvent: (webhookId) => json<WebhookDelivery>(() => sendTestWebhookEvent({ ...transport.call(), path: { webhookId } }), 202),
    exportText: async (what, format, filters = {}) => {
      const { sort, order, ...selection } = filters;
      const send =
        'hostHistory' in what
          ? () => exportHostHistory({ ...transport.call(), path: { hostRecordId: what.hostHistory }, query: { format } })
          : 'hosts' in what
            ? () => exportHosts({ ...transport.call(), query: { ...selection, sort, order, format } })
            : () => exportFindings({ ...transport.call(), query: { ...selection, format } });
      return (await answerOf(send, 200)).text;
    },
    ...accessOperations({ json, answerOf, transport }),
    ...hostLifecycleOperations({ json, answerOf, transport }),
    ...findingOperations({ json, answerOf, transport }),
    ...complianceHistoryOperations({ json, answerOf, transport }),
    ...digestOperations({ json, answerOf, transport }),
    ...controlOperations({ json, transport }),
    close: () => transport.close(),
  };
}

/** How the operations send a request and read its answer: as JSON, or as the answer itself, at a success status. */
interface Exchanges {
  json<T>(send: () => Promise<SdkResult>, successStatus: number): Promise<T>;
  answerOf(send: () => Promise<SdkResult>, successStatus: number): Promise<Answer>;
  transport: ReturnType<typeof createTransport>;
}

/** Who may do what and who did what: people, tokens, the audit trail, and the enrollments that let hosts in. */
type AccessOperations =
  | 'listUsers'
  | 'listPeople'
  | 'createUser'
  | 'updateUser'
  | 'deleteUser'
  | 'listAdminTokens'
  | 'createServiceToken'
  | 'revokeAdminToken'
  | 'listMyTokens'
  | 'createMyToken'
  | 'revokeMyToken'
  | 'listAuditEvents'
  | 'exportAuditEvents'
  | 'listEnrollments'
  | 'createEnrollment'
  | 'revokeEnrollment';

function accessOperations({ json, answerOf, transport }: Exchanges): Pick<AdminClient, AccessOperations> {
  return {
    listUsers: () => json<UserList>(() => listUsers({ ...transport.call() }), 200),
    listPeople: () => json<PersonList>(() => listPeople({ ...transport.call() }), 200),
    createUser: (user) => json<User>(() => createUser({ ...transport.call(), body: user }), 201),
    updateUser: (userId, change) => json<User>(() => updateUser({ ...transport.call(), path: { userId }, body: change }), 200),
    deleteUser: async (userId) => void (await answerOf(() => deleteUser({ ...transport.call(), path: { userId } }), 204)),
    listAdminTokens: () => json<AdminTokenList>(() => listAdminTokens({ ...transport.call() }), 200),
    createServiceToken: (request) => json<NewAdminToken>(() => createServiceToken({ ...transport.call(), body: request }), 201),
    revokeAdminToken: async (tokenId) => void (await answerOf(() => revokeAdminToken({ ...transport.call(), path: { tokenId } }), 204)),
    listMyTokens: () => json<AdminTokenList>(() => listMyTokens({ ...transport.call() }), 200),
    createMyToken: (request) => json<NewAdminToken>(() => createMyToken({ ...transport.call(), body: request }), 201),
    revokeMyToken: async (tokenId) => void (await answerOf(() => revokeMyToken({ ...transport.call(), path: { tokenId } }), 204)),
    listAuditEvents: (query) => json<AuditEventPage>(() => listAuditEvents({ ...transport.call(), query }), 200),
    exportAuditEvents: async (query) => (await answerOf(() => exportAuditEvents({ ...transport.call(), query }), 200)).text,
    listEnrollments: () => json<EnrollmentList>(() => listEnrollments({ ...transport.call() }), 200),
    createEnrollment: (body) => json<NewEnrollment>(() => createEnrollment({ ...transport.call(), body }), 201),
    revokeEnrollment: async (enrollmentId) => void (await answerOf(() => revokeEnrollment({ ...transport.call(), path: { enrollmentId } }), 204)),
  };
}

/** A host's life: its state changed one by one or in bulk, another host merged into it, or the host deleted. */
type HostLifecycleOperations = 'decommissionHost' | 'reactivateHost' | 'mergeHosts' | 'changeHostStates' | 'deleteHost';

function hostLifecycleOperations({ json, answerOf, transport }: Exchanges): Pick<AdminClient, HostLifecycleOperations> {
  return {
    decommissionHost: (hostRecordId) => json<Host>(() => decommissionHost({ ...transport.call(), path: { hostRecordId } }), 200),
    reactivateHost: (hostRecordId) => json<Host>(() => reactivateHost({ ...transport.call(), path: { hostRecordId } }), 200),
    mergeHosts: (hostRecordId, other) => json<Host>(() => mergeHosts({ ...transport.call(), path: { hostRecordId }, body: { hostRecordId: other } }), 200),
    changeHostStates: (change) => json<HostStateChangeResult>(() => changeHostStates({ ...transport.call(), body: change }), 200),
    deleteHost: async (hostRecordId) => void (await answerOf(() => deleteHost({ ...transport.call(), path: { hostRecordId } }), 204)),
  };
}

/** Findings with a lifecycle: a host's, the fleet's, and a change of one's state, owner or accepted risk. */
type FindingOperations = 'listHostFindings' | 'listTrackedFindings' | 'updateFinding' | 'getTimeToFix' | 'exportFindingStates';

function findingOperations({ json, answerOf, transport }: Exchanges): Pick<AdminClient, FindingOperations> {
  return {
    listHostFindings: (hostRecordId, query) => json<TrackedFindingList>(() => listHostFindings({ ...transport.call(), path: { hostRecordId }, query }), 200),
    listTrackedFindings: (query) => json<TrackedFindingPage>(() => listTrackedFindings({ ...transport.call(), query }), 200),
    updateFinding: (findingId, update) => json<TrackedFinding>(() => updateFinding({ ...transport.call(), path: { findingId }, body: update }), 200),
    getTimeToFix: (query) => json<TimeToFix>(() => getTimeToFix({ ...transport.call(), query }), 200),
    exportFindingStates: async (query) => (await answerOf(() => exportFindingStates({ ...transport.call(), query }), 200)).text,
  };
}

/** The fleet's compliance and open findings over time, and their export. */
type ComplianceHistoryOperations = 'getComplianceHistory' | 'exportComplianceHistory';

function complianceHistoryOperations({ json, answerOf, transport }: Exchanges): Pick<AdminClient, ComplianceHistoryOperations> {
  return {
    getComplianceHistory: (query) => json<ComplianceHistory>(() => getComplianceHistory({ ...transport.call(), query }), 200),
    exportComplianceHistory: async (query) => (await answerOf(() => exportComplianceHistory({ ...transport.call(), query }), 200)).text,
  };
}

/** Scheduled digests and the digests issued. */
type DigestOperations = 'listDigestSchedules' | 'createDigestSchedule' | 'deleteDigestSchedule' | 'issueDigest' | 'listDigests' | 'getDigest' | 'resendDigest';

function digestOperations({ json, answerOf, transport }: Exchanges): Pick<AdminClient, DigestOperations> {
  return {
    listDigestSchedules: () => json<DigestScheduleList>(() => listDigestSchedules({ ...transport.call() }), 200),
    createDigestSchedule: (schedule) => json<DigestSchedule>(() => createDigestSchedule({ ...transport.call(), body: schedule }), 201),
    deleteDigestSchedule: async (scheduleId) => void (await answerOf(() => deleteDigestSchedule({ ...transport.call(), path: { scheduleId } }), 204)),
    issueDigest: (scheduleId) => json<Digest>(() => issueDigest({ ...transport.call(), path: { scheduleId } }), 201),
    listDigests: (query) => json<DigestPage>(() => listDigests({ ...transport.call(), query }), 200),
    getDigest: (digestId) => json<Digest>(() => getDigest({ ...transport.call(), path: { digestId } }), 200),
    resendDigest: (digestId) => json<Digest>(() => resendDigest({ ...transport.call(), path: { digestId } }), 200),
  };
}

/** Frameworks' controls, and the import of a mapping file. */
function controlOperations({ json, transport }: Pick<Exchanges, 'json' | 'transport'>): Pick<AdminClient, 'listControls' | 'importControls'> {
  return {
    listControls: (query) => json<ControlReport>(() => listControls({ ...transport.call(), query }), 200),
    importControls: (csv) => json<ControlImportResult>(() => importControls({ ...transport.call(), body: csv }), 200),
  };
}

/** What an SDK call resolves with when told not to throw. */
type SdkResult = Parameters<typeof exchange>[0] extends () => Promise<infer R> ? R : never;

/** The JSON body of a successful answer; anything else is an answer the contract does not describe. */
function parseJson<T>(answer: Answer): T {
  if (/^application\/json\b/i.test(answer.contentType)) {
    try {
      const value: unknown = JSON.parse(answer.text);
      if (typeof value === 'object' && value !== null) return value as T;
    } catch {
      // Reported below, like any other body that is not the JSON object the contract promises.
    }
  }
  throw new ServerError(answer.status, `expected a JSON object, got ${answer.contentType || 'no content type'}: ${firstLine(answer.text)}`);
}

/**
 * Maps an answer that is not a success to the typed error a caller branches on. The answer's text has the token
 * redacted already, so nothing built from it can hold the token.
 */
function errorFor(answer: Answer, baseUrl: string): AuditClientError {
  const problem = problemOf(answer);
  const reason = problem ? (problem.detail ?? problem.title) : firstLine(answer.text);
  if (answer.status === 401) return new InvalidAdminTokenError(problem);
  // The admin API answers every 404 with problem details; any other 404 comes from something else at that address.
  if (answer.status === 404 && !problem) return new ServerError(404, notTheAdminApi(answer, baseUrl));
  if (answer.status === 404) return new NotFoundError(reason, problem);
  if (answer.status === 409) return new ConflictError(reason, problem);
  return commonErrorFor(answer, reason, problem);
}

/** The plain-text 404 an audit server's listener gives every path it does not serve (the Express fallback). */
const LISTENER_NOT_FOUND = 'Not found';

/**
 * Why a 404 without problem details means the URL is wrong, and where the admin API is: an audit server's
 * collectors' port answers `/api/admin/…` with its plain-text 404 when the admin API has a listener of its own
 * (`--admin-listen`) or is off.
 */
function notTheAdminApi(answer: Answer, baseUrl: string): string {
  const where = `${baseUrl.replace(/\/+$/, '')}`;
  const seen =
    answer.text.trim() === LISTENER_NOT_FOUND
      ? `${where} answers Lynis uploads, not the admin API (an audit server's collectors' or operations port: a plain-text 404 for /api/admin/)`
      : `${where} has no admin API under /api/admin/ (a 404 without the API's problem details: ${firstLine(answer.text) || 'empty body'})`;
  return (
    `${seen}. The admin API listens on the address of the server's --admin-listen (ADMIN_LISTEN) unless that is off, ` +
    'else on its --port; the server logs it as adminUrl when it starts. Give that URL to --url or AUDIT_URL; see docs/client.md'
  );
}

/** The answer's RFC 9457 problem details, when it is one: only the standard members, each string shortened. */
function problemOf(answer: Answer): Problem | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || typeof body.title !== 'string' || typeof body.status !== 'number') return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 500) : undefined);
  const detail = text(body.detail);
  return { type: text(body.type) ?? 'about:blank', title: text(body.title)!, status: body.status, ...(detail === undefined ? {} : { detail }) };
}
