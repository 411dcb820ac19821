import type { AuditLogger } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import type * as Contract from '../generated/types.gen.js';
import type { AdminResponse } from './responses.js';

/** What every admin operation works with. */
export interface AdminContext {
  database: Database;
  /** Where changes made through the API are logged, with the id of the admin token that made them. */
  logger: AuditLogger;
  /** Woken when policies change, so hosts are evaluated again soon. */
  policyEvaluator?: { wake(): void };
  /** Woken when a delivery is queued again. */
  webhookDispatcher?: { wake(): void };
  /** Whether webhook URLs may name loopback, private and link-local hosts (`--webhook-allow-private`). */
  webhookAllowPrivate: boolean;
}

/**
 * One operation of the contract: its request (`<Op>Data`) and answers (`<Op>Responses`) as generated from the
 * contract; `Defaulted`, the optional query and body fields the contract gives a default (filled in by validation,
 * so present in a handler); `Raw`, true when its success is not JSON (a stream, stored text) or carries headers.
 */
interface Operation<Data extends { url: string }, Responses, Defaulted extends string = never, Raw extends boolean = false> {
  data: Data;
  responses: Responses;
  defaulted: Defaulted;
  raw: Raw;
}

/** The admin API's pagination parameters, which the contract defaults. */
type Page = 'limit' | 'offset';

/**
 * Every admin operation of the contract, by operationId. The generated types carry no list of operations, so
 * this is the one place that names them: a misspelled type fails to compile, an operation whose url is not under
 * `/api/admin` fails {@link AdminOperationId}, and `createAdminApi` refuses to start while the contract has an
 * admin operation this map (and so the handler registry) lacks.
 */
interface AdminContract {
  getAdminSession: Operation<Contract.GetAdminSessionData, Contract.GetAdminSessionResponses, never, true>;
  listHosts: Operation<Contract.ListHostsData, Contract.ListHostsResponses, Page>;
  getHost: Operation<Contract.GetHostData, Contract.GetHostResponses, 'historyLimit'>;
  acceptHostIdentity: Operation<Contract.AcceptHostIdentityData, Contract.AcceptHostIdentityResponses>;
  listReports: Operation<Contract.ListReportsData, Contract.ListReportsResponses, Page>;
  getReport: Operation<Contract.GetReportData, Contract.GetReportResponses>;
  getRawReport: Operation<Contract.GetRawReportData, Contract.GetRawReportResponses, never, true>;
  getReportDiff: Operation<Contract.GetReportDiffData, Contract.GetReportDiffResponses>;
  listLicenseKeys: Operation<Contract.ListLicenseKeysData, Contract.ListLicenseKeysResponses>;
  createLicenseKey: Operation<Contract.CreateLicenseKeyData, Contract.CreateLicenseKeyResponses>;
  updateLicenseKey: Operation<Contract.UpdateLicenseKeyData, Contract.UpdateLicenseKeyResponses>;
  revokeLicenseKey: Operation<Contract.RevokeLicenseKeyData, Contract.RevokeLicenseKeyResponses>;
  rotateLicenseKey: Operation<Contract.RotateLicenseKeyData, Contract.RotateLicenseKeyResponses, 'graceSeconds'>;
  getOverview: Operation<Contract.GetOverviewData, Contract.GetOverviewResponses, 'staleDays'>;
  listFindings: Operation<Contract.ListFindingsData, Contract.ListFindingsResponses, Page>;
  listRejections: Operation<Contract.ListRejectionsData, Contract.ListRejectionsResponses, Page>;
  listPolicies: Operation<Contract.ListPoliciesData, Contract.ListPoliciesResponses>;
  createPolicy: Operation<Contract.CreatePolicyData, Contract.CreatePolicyResponses>;
  enableBaselinePolicy: Operation<Contract.EnableBaselinePolicyData, Contract.EnableBaselinePolicyResponses>;
  deletePolicy: Operation<Contract.DeletePolicyData, Contract.DeletePolicyResponses>;
  getPolicy: Operation<Contract.GetPolicyData, Contract.GetPolicyResponses>;
  updatePolicy: Operation<Contract.UpdatePolicyData, Contract.UpdatePolicyResponses>;
  listPolicyResults: Operation<Contract.ListPolicyResultsData, Contract.ListPolicyResultsResponses, Page>;
  getHostCompliance: Operation<Contract.GetHostComplianceData, Contract.GetHostComplianceResponses>;
  listWaivers: Operation<Contract.ListWaiversData, Contract.ListWaiversResponses, 'includeExpired'>;
  createWaiver: Operation<Contract.CreateWaiverData, Contract.CreateWaiverResponses>;
  deleteWaiver: Operation<Contract.DeleteWaiverData, Contract.DeleteWaiverResponses>;
  listWebhooks: Operation<Contract.ListWebhooksData, Contract.ListWebhooksResponses>;
  createWebhook: Operation<Contract.CreateWebhookData, Contract.CreateWebhookResponses>;
  deleteWebhook: Operation<Contract.DeleteWebhookData, Contract.DeleteWebhookResponses>;
  getWebhook: Operation<Contract.GetWebhookData, Contract.GetWebhookResponses>;
  updateWebhook: Operation<Contract.UpdateWebhookData, Contract.UpdateWebhookResponses>;
  listWebhookDeliveries: Operation<Contract.ListWebhookDeliveriesData, Contract.ListWebhookDeliveriesResponses, Page>;
  redeliverWebhookDelivery: Operation<Contract.RedeliverWebhookDeliveryData, Contract.RedeliverWebhookDeliveryResponses>;
  exportHosts: Operation<Contract.ExportHostsData, Contract.ExportHostsResponses, 'format', true>;
  exportFindings: Operation<Contract.ExportFindingsData, Contract.ExportFindingsResponses, 'format', true>;
  exportHostHistory: Operation<Contract.ExportHostHistoryData, Contract.ExportHostHistoryResponses, 'format', true>;
}

/** The operationId of every admin operation: those of {@link AdminContract} whose url is under `/api/admin`. */
export type AdminOperationId = {
  [Op in keyof AdminContract]: AdminContract[Op]['data']['url'] extends `/api/admin/${string}` ? Op : never;
}[keyof AdminContract];

/** A part of a request (path, query or body): nothing when the contract has none; the defaulted fields present. */
type RequestPart<Part, Defaulted extends string> = [Exclude<Part, undefined>] extends [never]
  ? Record<string, never>
  : Exclude<Part, undefined> & Required<Pick<Exclude<Part, undefined>, Defaulted & keyof Exclude<Part, undefined>>>;

/** A validated admin request: parameters coerced to their contract types, the contract's defaults filled in. */
export interface AdminInput<Op extends AdminOperationId> {
  path: RequestPart<AdminContract[Op]['data']['path'], never>;
  query: RequestPart<AdminContract[Op]['data']['query'], AdminContract[Op]['defaulted']>;
  /** The JSON body (`{}` when none was sent). */
  body: RequestPart<AdminContract[Op]['data']['body'], AdminContract[Op]['defaulted']>;
  /** The id of the admin token the request authenticated with. */
  tokenId: string;
}

/** What `JSON.stringify` makes into `T`: a `Date` is written as its ISO 8601 string, as the contract's `date-time` fields want. */
type Serializable<T> = T extends string
  ? T | Date
  : T extends readonly (infer Item)[]
    ? Serializable<Item>[]
    : T extends object
      ? { [K in keyof T]: Serializable<T[K]> }
      : T;

/** A success the contract lists for the operation: its status and, unless it has none, its JSON body. */
type JsonReply<Responses> = {
  [Status in keyof Responses & number]: Responses[Status] extends void ? { status: Status } : { status: Status; body: Serializable<Responses[Status]> };
}[keyof Responses & number];

/** An answer already made: a stream or stored text, or an answer with headers of its own. */
export interface RawReply {
  raw: AdminResponse;
}

/** What an operation's handler answers; failures are thrown as a `DomainError`. */
export type AdminReply<Op extends AdminOperationId> = AdminContract[Op]['raw'] extends true ? RawReply : JsonReply<AdminContract[Op]['responses']>;

/** The handler of one admin operation. */
export type AdminHandler<Op extends AdminOperationId> = (input: AdminInput<Op>, context: AdminContext) => Promise<AdminReply<Op>>;

/** Handlers of the operations `Ops`, by operationId: what each `*-routes.ts` module exports. */
export type AdminHandlers<Ops extends AdminOperationId> = { [Op in Ops]: AdminHandler<Op> };
