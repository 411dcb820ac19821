import type { AuditLogger } from '@org/audit-server-core';
import type { AuditNote } from '../audit/audit-entry.js';
import type { Database } from '../database/dialect.js';
import type { ADMIN_OPERATION_ROLES, AdminOperations } from '../generated/admin-operations.gen.js';
import type { SignInLockout } from '../people/sign-in-lockout.js';
import type { SessionStore } from '../people/sessions.js';
import type { SingleSignOn } from '../sso/single-sign-on.js';
import type { EnrollmentSettings } from '../enrollment/enrollment-settings.js';
import type { LifecycleSettings } from '../hosts/lifecycle-settings.js';
import type { FindingAcceptanceSettings } from '../findings/finding-settings.js';
import type { DigestServerSettings } from '../digests/digest-issuing.js';
import type { AdminRole } from '../people/roles.js';
import type { AccessScope } from '../people/scope.js';
import type { UserSummary } from '../people/user-records.js';
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
  /** The longest a waiver may run, in days (`--waiver-max-days`). */
  waiverMaxDays: number;
  /** Who may accept a finding's risk (`--finding-approval`, `--finding-accept-role`). */
  findingAcceptance: FindingAcceptanceSettings;
  /** People's sessions. */
  sessions: SessionStore;
  /** The lockout against guessing passwords. */
  signInLockout: SignInLockout;
  /** Single sign-on through an OpenID provider; undefined when not configured. */
  sso?: SingleSignOn;
  /** Where enrolled hosts reach the intake; undefined when the server has not said (enrollments cannot be made). */
  enrollment?: EnrollmentSettings;
  /** When hosts go stale and expire (`--stale-days` and the rest). */
  lifecycle: LifecycleSettings;
  /** Whether fleet lists leave out findings about Lynis itself (`--lynis-own-findings hide`). */
  hideLynisFindings: boolean;
  /** Digests: their page's link, whether the server sends mail (`--smtp-url`), the work that sends them. */
  digests: DigestServerSettings;
}

/** Who made a request: an admin token, or a person signed in with the session cookie; each with the role it has. */
export type AdminActor = ({ kind: 'token'; tokenId: string } | { kind: 'user'; user: UserSummary }) & {
  role: AdminRole;
  /** Which hosts it may see: every read of hosts and their reports, results and findings goes through it. */
  scope: AccessScope;
};

/** The operations anyone may call (`x-required-role: none`): they have no {@link AdminActor}. */
type OpenOperation = {
  [Op in keyof typeof ADMIN_OPERATION_ROLES]: (typeof ADMIN_OPERATION_ROLES)[Op] extends 'none' ? Op : never;
}[keyof typeof ADMIN_OPERATION_ROLES];

/**
 * Operations whose success the contract gives as plain JSON but whose handler answers by hand: `getAdminSession`
 * answers a token revoked since the check with the API's own 401 and its `WWW-Authenticate` header, which a JSON
 * reply cannot carry and the contract (whose 401 every admin operation shares) does not single out.
 */
type AnsweredByHand = 'getAdminSession';

/**
 * Every admin operation of the contract, by operationId, as generated from it (generated/admin-operations.gen.ts):
 * `data` and `responses`, its generated `<Op>Data` and `<Op>Responses`; `defaulted`, the optional query and body
 * fields the contract gives a default (filled in by validation, so present in a handler); `raw`, true when its
 * success is not JSON (a stream, stored text) or carries headers. An operation whose url is not under `/api/admin`
 * fails {@link AdminOperationId}, and `createAdminApi` refuses to start while the contract has an admin operation
 * the handler registry lacks.
 */
type AdminContract = {
  [Op in keyof AdminOperations]: {
    data: AdminOperations[Op]['data'];
    responses: AdminOperations[Op]['responses'];
    defaulted: AdminOperations[Op]['defaulted'];
    raw: Op extends AnsweredByHand ? true : AdminOperations[Op]['raw'];
  };
};

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
  /** Who made the request; none for the operations anyone may call. */
  actor: Op extends OpenOperation ? undefined : AdminActor;
  /**
   * What signing in and out need of the request itself: the client's address, the session cookie's id, the
   * request's own origin (`https://host:port`, as the browser addressed the server) and its `Cookie` header.
   */
  client: { address?: string; sessionId?: string; origin?: string; cookies?: string };
  /**
   * The request's note for the audit trail, which the handler may fill: what it acted on (`target`), what changed
   * (`changes`, field by field `{ before, after }`), who signed in (`actor`). Read once the handler is done; fields
   * named like secrets are dropped.
   */
  audit: AuditNote;
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
