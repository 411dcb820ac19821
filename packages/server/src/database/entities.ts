import type { InferEntity } from '@mikro-orm/core';
import { requireCommonJs } from './commonjs.js';

const { defineEntity, p } = requireCommonJs('@mikro-orm/core') as typeof import('@mikro-orm/core');

/**
 * Tells whether `id` can be a record id (all are UUIDs). Check before querying by an id from outside: anything
 * else names no record, and PostgreSQL would refuse to compare it with a uuid column instead of finding nothing.
 */
export const isRecordId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** A license key, known only by its SHA-256 hash. */
export const LicenseKeyRecord = defineEntity({
  name: 'LicenseKeyRecord',
  tableName: 'license_key',
  properties: {
    id: p.uuid().primary(),
    keyHash: p.string().length(64).unique(),
    /** The key's first group of characters, so operators can tell keys apart without the secret. */
    prefix: p.string().length(8),
    label: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** After this time the key counts as revoked (set by `keys create --expires` and by a rotation's grace period). */
    expiresAt: p.datetime().nullable(),
    /** Last valid license check or upload; written in batches, so up to a flush interval behind. */
    lastUsedAt: p.datetime().nullable(),
    /** Raised on every change that can alter a key's state, so servers notice changes with one cheap query. */
    revision: p.integer().default(0),
    /** Most hosts new to this key per UTC day; null: the server's default (`--key-new-hosts-per-day`). */
    newHostsPerDay: p.integer().nullable(),
    /** Most hosts this key may have; null: no maximum. */
    maxHosts: p.integer().nullable(),
  },
});
export type LicenseKeyRecord = InferEntity<typeof LicenseKeyRecord>;

/**
 * One audited machine: a `hostid` under one license key (the same `hostid` under another key is another host).
 * Its id is derived from the key id and `hostid` (see `hostRecordId`), so every server computes it without asking
 * the database. The descriptive columns follow the report received last.
 */
export const HostRecord = defineEntity({
  name: 'HostRecord',
  tableName: 'host',
  properties: {
    id: p.uuid().primary(),
    key: () => p.manyToOne(LicenseKeyRecord),
    hostId: p.string().length(255),
    /** The newest report's `hostid2`; each report keeps its own. */
    hostId2: p.string().length(255).nullable(),
    hostname: p.string().length(255).nullable(),
    /** The operating system's full name, as Lynis reports it. */
    osName: p.string().length(255).nullable(),
    lynisVersion: p.string().length(255).nullable(),
    firstSeen: p.datetime(),
    lastSeen: p.datetime(),
    /** Reports of this host currently stored (retention lowers it). */
    reportCount: p.integer(),
    latestReportId: p.uuid().nullable(),
    latestHardeningIndex: p.integer().nullable(),
    /** Warnings and suggestions of the newest report; null when it is not a Lynis report. */
    latestWarningCount: p.integer().nullable(),
    latestSuggestionCount: p.integer().nullable(),
    /** The newest report's `system-customer-name=` and `hostname_alias=` (its groups and tags: `host_label`). */
    customerName: p.string().length(255).nullable(),
    hostnameAlias: p.string().length(255).nullable(),
    /**
     * Which derivation of the newest report the host's labels, findings and counts come from: uploads write the
     * current one (`DERIVED_VERSION`); hosts stored before it are derived again in the background.
     */
    derivedVersion: p.integer().default(0),
    /** A digest of the labels and findings the host holds (`host_label`, `host_finding`): unchanged ones are not rewritten. */
    derivedDigest: p.string().length(64).nullable(),
    /**
     * A `hostid2` change no operator has accepted yet (see `hosts/host-admission.ts`): when it was first seen (null: none),
     * the `hostid2` the host had and the one the report carried, and whether that report was refused (strict mode).
     */
    identityChangedAt: p.datetime().nullable(),
    identityFrom: p.string().length(255).nullable(),
    identityTo: p.string().length(255).nullable(),
    identityRefused: p.boolean().default(false),
    /** The enrollment whose alias of the key the host's first report came with (see `enrollment/`); null: the key itself. */
    enrollmentId: p.uuid().nullable(),
    /** The host's lifecycle state (`active`, `stale`, `decommissioned`; see `hosts/host-lifecycle.ts`), since when and why. */
    state: p.string().length(16).default('active'),
    stateSince: p.datetime().nullable(),
    stateReason: p.string().length(16).default('reporting'),
    /** The newest report's `machineid=` and whether it says `allow-auto-purge=1`. */
    machineId: p.string().length(255).nullable(),
    autoPurge: p.boolean().default(false),
  },
  uniques: [{ properties: ['key', 'hostId'] }],
  indexes: [
    { properties: ['hostname'] },
    { properties: ['enrollmentId'] },
    { properties: ['lastSeen'] },
    // The host list's OS filter compares case-insensitively.
    { name: 'host_lower_os_name_index', expression: 'create index host_lower_os_name_index on host (lower(os_name))' },
    // The hosts of a scope's customers (`hosts/host-scope.ts`).
    { properties: ['customerName'] },
    // Hosts by lifecycle state; and a key's hosts by `hostid2`, which identity merge looks up.
    { properties: ['state'] },
    { properties: ['key', 'hostId2'] },
  ],
});
export type HostRecord = InferEntity<typeof HostRecord>;

/** A `hostid` merged into another host (by hand or by identity merge): later reports under it join that host. */
export const HostAliasRecord = defineEntity({
  name: 'HostAliasRecord',
  tableName: 'host_alias',
  properties: {
    keyId: p.uuid().primary(),
    hostId: p.string().length(255).primary(),
    hostRecordId: p.uuid().index(),
    mergedAt: p.datetime(),
  },
});
export type HostAliasRecord = InferEntity<typeof HostAliasRecord>;

/** One uploaded report, its license key value redacted. */
export const ReportRecord = defineEntity({
  name: 'ReportRecord',
  tableName: 'report',
  properties: {
    id: p.uuid().primary(),
    // No index of their own: the indexes below start with them, and every index slows every upload.
    key: () => p.manyToOne(LicenseKeyRecord).index(false),
    hostRecord: () => p.manyToOne(HostRecord).index(false),
    hostId: p.string().length(255),
    hostId2: p.string().length(255).nullable(),
    receivedAt: p.datetime(),
    encoding: p.string().length(8),
    /** Size and SHA-256 of the report as the client sent it (before redaction). */
    size: p.integer(),
    sha256: p.string().length(64),
    /** The report as kept (license key values redacted), compressed as `contentEncoding` says: read it with `reportBytesOf`. */
    content: p.blob(),
    /** `identity` or `br` (see `ContentEncoding`); rows stored before compression are `identity`. */
    contentEncoding: p.string().length(8).default('identity'),
    /** SHA-256 of the kept report before compression, checked on every read; null on rows stored before it was kept. */
    contentSha256: p.string().length(64).nullable(),
    // What the Lynis report says about itself; all null when the report is not a Lynis report.
    hostname: p.string().length(255).nullable(),
    lynisVersion: p.string().length(255).nullable(),
    hardeningIndex: p.integer().nullable(),
    warningCount: p.integer().nullable(),
    suggestionCount: p.integer().nullable(),
  },
  // Newest first, by key, by host, or over all reports (the admin API's report list at fleet size); the last one
  // also holds the hardening index, so that the overview's trends per day read the index alone.
  indexes: [
    { properties: ['key', 'receivedAt'] },
    { properties: ['hostRecord', 'receivedAt'] },
    { properties: ['receivedAt', 'id', 'hardeningIndex'] },
    // The compaction pass finds the `pending` reports with it, without reading the table.
    { properties: ['contentEncoding'] },
  ],
});
export type ReportRecord = InferEntity<typeof ReportRecord>;

/**
 * A group (`kind` `group`, from `system-groups=`) or tag (`tags`) of a host's newest report, one row each, in the
 * report's order (`position`). Kept current with the host's newest report, in the transaction that changes it.
 */
export const HostLabelRecord = defineEntity({
  name: 'HostLabelRecord',
  tableName: 'host_label',
  properties: {
    hostRecord: () => p.manyToOne(HostRecord).primary().index(false),
    kind: p.string().length(8).primary(),
    value: p.string().length(255).primary(),
    position: p.integer(),
  },
  // The hosts of one group or tag; and of one compared case-insensitively, as the host list's filters do.
  indexes: [
    { properties: ['kind', 'value', 'hostRecord'] },
    {
      name: 'host_label_kind_lower_value_index',
      expression: 'create index host_label_kind_lower_value_index on host_label (kind, lower(value), host_record_id)',
    },
  ],
});
export type HostLabelRecord = InferEntity<typeof HostLabelRecord>;

/**
 * A warning or suggestion (`kind`) of a host's newest report: one row per test id, with the test's text (the
 * smallest when the report names the test more than once). Kept current with the host's newest report. SQLite keeps
 * this table and `host_label` without rowid (their migration says so; the ORM does not model it).
 */
export const HostFindingRecord = defineEntity({
  name: 'HostFindingRecord',
  tableName: 'host_finding',
  properties: {
    hostRecord: () => p.manyToOne(HostRecord).primary().index(false),
    kind: p.string().length(10).primary(),
    testId: p.string().length(64).primary(),
    text: p.string().length(255),
  },
  // The findings across the fleet (grouped by test id and kind, with their smallest text) and the hosts of one test
  // id, both read from this index alone: fetching each row's text took 230 of 250 ms at 10,000 hosts on SQLite.
  indexes: [{ properties: ['testId', 'kind', 'text', 'hostRecord'] }],
});
export type HostFindingRecord = InferEntity<typeof HostFindingRecord>;

/**
 * How many hosts hold each finding (`host_finding` grouped by kind and test id), kept exact by the writes that change
 * `host_finding` (in their transaction, as deltas), so that the fleet's findings are ranked without grouping millions
 * of rows. A finding on no host has no row.
 */
export const FindingCountRecord = defineEntity({
  name: 'FindingCountRecord',
  tableName: 'finding_count',
  properties: {
    kind: p.string().length(10).primary(),
    testId: p.string().length(64).primary(),
    hosts: p.integer(),
  },
});
export type FindingCountRecord = InferEntity<typeof FindingCountRecord>;

/** A token for the admin API, known only by its SHA-256 hash. */
export const AdminTokenRecord = defineEntity({
  name: 'AdminTokenRecord',
  tableName: 'admin_token',
  properties: {
    id: p.uuid().primary(),
    tokenHash: p.string().length(64).unique(),
    /** The token's first characters, so operators can tell tokens apart without the secret. */
    prefix: p.string().length(8),
    label: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    /** `viewer`, `operator` or `admin`: what the token may do (`x-required-role` in the contract). */
    role: p.string().length(16).default('admin'),
    /** `personal` (a person's: `ownerUserId`, never above its role) or `service` (a named `serviceAccount`'s). */
    kind: p.string().length(16).default('service'),
    ownerUserId: p.uuid().nullable().index(),
    serviceAccount: p.string().length(255).nullable(),
    /** When the token stops working; null for never. */
    expiresAt: p.datetime().nullable(),
    /** The scope (see `people/scope.ts`): JSON arrays of customer names and system groups; null for none. */
    scopeCustomers: p.text().nullable(),
    scopeGroups: p.text().nullable(),
  },
});
export type AdminTokenRecord = InferEntity<typeof AdminTokenRecord>;

/**
 * One row (id 1) that the readiness check rewrites while writes fail, to see whether the database takes a write
 * needing new space again (see `WriteHealth`).
 */
export const WriteProbeRecord = defineEntity({
  name: 'WriteProbeRecord',
  tableName: 'write_probe',
  properties: {
    id: p.integer().primary().autoincrement(false),
    writtenAt: p.datetime(),
    payload: p.blob(),
  },
});
export type WriteProbeRecord = InferEntity<typeof WriteProbeRecord>;

/**
 * Refused license checks and uploads of one day (UTC), operation, reason, key id, `hostid` and client address,
 * counted. Written in batches by `RejectionLog`; `''` stands for a key id, `hostid` or address not known, and a
 * `folded` row counts the refusals beyond the bound of distinct groups per day (its `hostid` and address are `''`).
 */
export const RejectionRecord = defineEntity({
  name: 'RejectionRecord',
  tableName: 'rejection',
  properties: {
    /** `YYYY-MM-DD`, so that days compare and sort as text on every dialect. */
    day: p.string().length(10).primary(),
    operation: p.string().length(16).primary(),
    reason: p.string().length(32).primary(),
    keyId: p.string().length(36).primary(),
    hostId: p.string().length(255).primary(),
    remoteAddress: p.string().length(64).primary(),
    folded: p.boolean().primary(),
    count: p.integer(),
    firstAt: p.datetime(),
    lastAt: p.datetime(),
  },
});
export type RejectionRecord = InferEntity<typeof RejectionRecord>;

/**
 * A compliance policy: named rules (CEL expressions, kept as JSON in `rules`) over each host's latest report,
 * for the hosts its scope selects. `revision` rises with every change, so evaluators notice changes cheaply.
 */
export const PolicyRecord = defineEntity({
  name: 'PolicyRecord',
  tableName: 'policy',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(100).unique(),
    description: p.text().nullable(),
    enabled: p.boolean(),
    scopeKeyId: p.uuid().nullable(),
    scopeGroup: p.string().length(255).nullable(),
    scopeTag: p.string().length(255).nullable(),
    scopeHostname: p.string().length(255).nullable(),
    /** `[{ id, description, expression }]`, in order. */
    rules: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    revision: p.integer(),
    /** Times a rule of the policy overran its time budget since the policy was last saved or enabled. */
    strikes: p.integer().default(0),
    /** When and why the evaluator disabled the policy (repeated overruns, or a rule that stopped its worker). */
    quarantinedAt: p.datetime().nullable(),
    quarantineReason: p.text().nullable(),
  },
});

/**
 * A policy being evaluated by one server's pass, written before its rules run and deleted after: a row that
 * outlives its `expiresAt` names a policy whose evaluation a server did not survive, quarantined by the next pass
 * (see `policies/policy-quarantine.ts`).
 */
export const PolicyRunRecord = defineEntity({
  name: 'PolicyRunRecord',
  tableName: 'policy_run',
  properties: {
    policyId: p.uuid().primary(),
    runId: p.string().length(36).primary(),
    expiresAt: p.datetime(),
  },
});
export type PolicyRunRecord = InferEntity<typeof PolicyRunRecord>;
export type PolicyRecord = InferEntity<typeof PolicyRecord>;

/** One host's result on one rule, from its latest report (`pass`, `fail` or `error`; waivers apply when read). */
export const PolicyResultRecord = defineEntity({
  name: 'PolicyResultRecord',
  tableName: 'policy_result',
  properties: {
    policyId: p.uuid().primary(),
    ruleId: p.string().length(64).primary(),
    hostRecordId: p.uuid().primary(),
    status: p.string().length(8),
    value: p.string().length(255).nullable(),
    message: p.string().length(500).nullable(),
    reportId: p.uuid(),
    evaluatedAt: p.datetime(),
    /** When the status last changed. */
    since: p.datetime(),
    /** The host name in the report evaluated, and whether it has none: the order of a policy's results pages. */
    hostname: p.string().length(255).nullable(),
    nameless: p.boolean().default(false),
    /** The policy's revision the result was evaluated under (see `PolicyVersionRecord`). */
    policyRevision: p.integer().default(0),
  },
  // A host's results on a policy (those a waiver names: PostgreSQL without statistics read the policy's results in
  // the primary key when this held the host alone), and a policy's results pages, by stored status (and rule), then
  // by host name (none last), host and rule, read in order from these rather than sorting every result.
  indexes: [
    { properties: ['hostRecordId', 'policyId'] },
    { name: 'policy_result_page_index', properties: ['policyId', 'status', 'nameless', 'hostname', 'hostRecordId', 'ruleId'] },
    { name: 'policy_result_rule_page_index', properties: ['policyId', 'ruleId', 'status', 'nameless', 'hostname', 'hostRecordId'] },
  ],
});
export type PolicyResultRecord = InferEntity<typeof PolicyResultRecord>;

/**
 * How many hosts have each stored status (`pass`, `fail`, `error`, before waivers) on each rule of each policy, and,
 * with an empty `ruleId`, on the policy as a whole (a host counted once, with its worst rule), or, under the nil
 * UUID, over every policy. Kept exact by the
 * evaluator as deltas in the transaction that writes the results, so that policies list their counts without
 * grouping every result; waivers are applied when read, to the few results they cover.
 */
export const PolicyStatusCountRecord = defineEntity({
  name: 'PolicyStatusCountRecord',
  tableName: 'policy_status_count',
  properties: {
    policyId: p.uuid().primary(),
    ruleId: p.string().length(64).primary(),
    status: p.string().length(8).primary(),
    hosts: p.integer(),
  },
});
export type PolicyStatusCountRecord = InferEntity<typeof PolicyStatusCountRecord>;

/** A change of one host's status on one rule: the history behind {@link PolicyResultRecord}. */
export const PolicyResultChangeRecord = defineEntity({
  name: 'PolicyResultChangeRecord',
  tableName: 'policy_result_change',
  properties: {
    id: p.uuid().primary(),
    hostRecordId: p.uuid(),
    policyId: p.uuid(),
    ruleId: p.string().length(64),
    status: p.string().length(8),
    value: p.string().length(255).nullable(),
    reportId: p.uuid(),
    at: p.datetime(),
    /** The policy's revision the status was evaluated under; null for changes recorded before revisions were kept. */
    policyRevision: p.integer().nullable(),
  },
  // By time too: the first change of all (the first day compliance snapshots cover).
  indexes: [{ properties: ['hostRecordId', 'at'] }, { properties: ['policyId'] }, { properties: ['at'] }],
});
export type PolicyResultChangeRecord = InferEntity<typeof PolicyResultChangeRecord>;

/**
 * Which report and which set of policies a host was last evaluated on, so that evaluators find the hosts whose
 * results are out of date with one query.
 */
export const PolicyEvaluationRecord = defineEntity({
  name: 'PolicyEvaluationRecord',
  tableName: 'policy_evaluation',
  properties: {
    hostRecordId: p.uuid().primary(),
    reportId: p.uuid(),
    /** The fingerprint of the enabled policies' ids and revisions. */
    policySet: p.string().length(64),
    evaluatedAt: p.datetime(),
  },
});
export type PolicyEvaluationRecord = InferEntity<typeof PolicyEvaluationRecord>;

/** A waiver: failures of a rule (or of every rule, `ruleId` null) of a policy count as waived for a host or a group until it expires. */
export const WaiverRecord = defineEntity({
  name: 'WaiverRecord',
  tableName: 'waiver',
  properties: {
    id: p.uuid().primary(),
    policyId: p.uuid(),
    ruleId: p.string().length(64).nullable(),
    hostRecordId: p.uuid().nullable(),
    groupName: p.string().length(255).nullable(),
    reason: p.text(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
    createdBy: p.string().length(255).nullable(),
  },
  indexes: [{ properties: ['policyId'] }],
});
export type WaiverRecord = InferEntity<typeof WaiverRecord>;

/** The fleet's compliance as last measured on each day (UTC), for the overview's trend. */
export const ComplianceDayRecord = defineEntity({
  name: 'ComplianceDayRecord',
  tableName: 'compliance_day',
  properties: {
    /** `YYYY-MM-DD`. */
    day: p.string().length(10).primary(),
    pass: p.integer(),
    fail: p.integer(),
    error: p.integer(),
    waived: p.integer(),
    measuredAt: p.datetime(),
  },
});
export type ComplianceDayRecord = InferEntity<typeof ComplianceDayRecord>;

/** A webhook subscription. Its secret signs deliveries, so it is kept as it is (shown once, never logged). */
export const WebhookRecord = defineEntity({
  name: 'WebhookRecord',
  tableName: 'webhook',
  properties: {
    id: p.uuid().primary(),
    url: p.text(),
    description: p.string().length(500).nullable(),
    /** Event types, comma-separated. */
    events: p.string().length(255),
    format: p.string().length(8),
    enabled: p.boolean(),
    staleDays: p.integer(),
    regressionThreshold: p.integer(),
    /** Most new deliveries in any 60 seconds; further events are folded (`webhook_fold`). */
    maxDeliveriesPerMinute: p.integer().default(60),
    secret: p.string().length(64),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type WebhookRecord = InferEntity<typeof WebhookRecord>;

/**
 * The outbox: an event written in the same transaction as the change it tells of, then fanned out to the
 * subscriptions that want it (`dispatched` set), so that no event is lost between a commit and its delivery.
 */
export const WebhookEventRecord = defineEntity({
  name: 'WebhookEventRecord',
  tableName: 'webhook_event',
  properties: {
    id: p.string().length(40).primary(),
    type: p.string().length(32),
    /** The event's `data`, as JSON. */
    data: p.text(),
    createdAt: p.datetime(),
    dispatched: p.boolean(),
  },
  indexes: [{ properties: ['dispatched', 'createdAt'] }],
});
export type WebhookEventRecord = InferEntity<typeof WebhookEventRecord>;

/** One event to send to one subscription: its body as sent, and how its attempts went. */
export const WebhookDeliveryRecord = defineEntity({
  name: 'WebhookDeliveryRecord',
  tableName: 'webhook_delivery',
  properties: {
    id: p.uuid().primary(),
    webhookId: p.uuid(),
    eventId: p.string().length(40),
    eventType: p.string().length(32),
    payload: p.text(),
    /** The host the event is about, and its name as the event gave it; null for events about no one host. */
    hostRecordId: p.uuid().nullable(),
    hostname: p.string().length(255).nullable(),
    status: p.string().length(10),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().nullable(),
    /** A sender's claim: others leave the delivery alone until then. */
    claimedUntil: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.string().length(500).nullable(),
    createdAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['status', 'nextAttemptAt'] }, { properties: ['webhookId', 'createdAt'] }],
});
export type WebhookDeliveryRecord = InferEntity<typeof WebhookDeliveryRecord>;

/** Events a subscription's delivery cap held back, counted until told in one `events.folded` delivery. */
export const WebhookFoldRecord = defineEntity({
  name: 'WebhookFoldRecord',
  tableName: 'webhook_fold',
  properties: {
    webhookId: p.uuid().primary(),
    /** Events folded per type, as JSON. */
    counts: p.text(),
    /** The first folded events' ids, as a JSON array. */
    eventIds: p.text(),
    total: p.integer(),
    firstAt: p.datetime(),
    lastAt: p.datetime(),
  },
});
export type WebhookFoldRecord = InferEntity<typeof WebhookFoldRecord>;

/** Events sent once per subject (a stale host, an expiring key, a host's refused uploads per hour): when last told. */
export const WebhookNoticeRecord = defineEntity({
  name: 'WebhookNoticeRecord',
  tableName: 'webhook_notice',
  properties: {
    kind: p.string().length(32).primary(),
    subject: p.string().length(400).primary(),
    notifiedAt: p.datetime(),
  },
});
export type WebhookNoticeRecord = InferEntity<typeof WebhookNoticeRecord>;

/**
 * A key's count of new hosts on its current UTC day (`hosts/host-admission.ts`). The row is also the lock that makes the
 * count exact: every commit adding hosts to the key updates it first, so servers sharing a database take turns.
 */
export const KeyHostQuotaRecord = defineEntity({
  name: 'KeyHostQuotaRecord',
  tableName: 'key_host_quota',
  properties: {
    keyId: p.uuid().primary(),
    /** The UTC day counted, `YYYY-MM-DD`. */
    day: p.string().length(10),
    newHosts: p.integer(),
  },
});
export type KeyHostQuotaRecord = InferEntity<typeof KeyHostQuotaRecord>;

/**
 * A person who signs in to the dashboard and admin API (sign-in itself comes with sessions). `email` is kept
 * lowercased, so that one address names one account however it is typed; the password only as an argon2id hash.
 */
export const UserRecord = defineEntity({
  name: 'UserRecord',
  tableName: 'app_user',
  properties: {
    id: p.uuid().primary(),
    email: p.string().length(254).unique(),
    displayName: p.string().length(255).nullable(),
    /** `viewer`, `operator` or `admin` (see `people/roles.ts`). */
    role: p.string().length(16),
    /** When the account was disabled; null while it may sign in. */
    disabledAt: p.datetime().nullable(),
    /**
     * The PHC string argon2id produced (`$argon2id$v=19$m=…`): algorithm, parameters, salt and hash together; null
     * for a person who signs in through single sign-on only.
     */
    passwordHash: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    passwordChangedAt: p.datetime(),
    lastSignInAt: p.datetime().nullable(),
    /** The scope (see `people/scope.ts`): JSON arrays of customer names and system groups; null for none. */
    scopeCustomers: p.text().nullable(),
    scopeGroups: p.text().nullable(),
    /** The single sign-on identity: the provider's issuer and the person's `sub` there; null for local accounts. */
    oidcIssuer: p.string().length(1024).nullable(),
    oidcSubject: p.string().length(255).nullable(),
  },
  uniques: [{ name: 'app_user_oidc_identity_unique', properties: ['oidcIssuer', 'oidcSubject'] }],
});
export type UserRecord = InferEntity<typeof UserRecord>;

/**
 * A person's signed-in session. The cookie carries a random id; this row only its SHA-256 hash, so a copy of the
 * database signs no one in. The role is the account's, read on each request.
 */
export const SessionRecord = defineEntity({
  name: 'SessionRecord',
  tableName: 'user_session',
  properties: {
    /** SHA-256 of the cookie's random id, hex. */
    id: p.string().length(64).primary(),
    userId: p.uuid().index(),
    createdAt: p.datetime(),
    /** When the session was last used, written at most once a minute: the idle timeout counts from here. */
    lastSeenAt: p.datetime(),
    /** The absolute end of the session, however busy. */
    expiresAt: p.datetime(),
  },
});
export type SessionRecord = InferEntity<typeof SessionRecord>;

/**
 * One entry of the audit trail (`audit/`): who did what, when, from where, and how it ended. Each carries the hash
 * of the one before it, so an entry altered or removed breaks the chain. Never edited; retention removes the oldest.
 */
export const AuditEventRecord = defineEntity({
  name: 'AuditEventRecord',
  tableName: 'audit_event',
  properties: {
    /** The entry's place in the chain, from 1. */
    sequence: p.integer().primary().autoincrement(false),
    id: p.uuid().unique(),
    at: p.datetime().index(),
    /** `user`, `token` or `anonymous`. */
    actorKind: p.string().length(16),
    actorId: p.string().length(255).nullable(),
    /** The person's email, or the token's service account or label; a failed sign-in's email tried. */
    actorName: p.string().length(255).nullable().index(),
    actorRole: p.string().length(16).nullable(),
    /** The operationId. */
    operation: p.string().length(64).index(),
    targetType: p.string().length(64).nullable(),
    targetId: p.string().length(255).nullable(),
    /** JSON text: field by field before and after, or an export's filters; null for none. */
    changes: p.text().nullable(),
    /** `success`, `failure` or `denied`. */
    outcome: p.string().length(16),
    status: p.integer(),
    sourceAddress: p.string().length(64).nullable(),
    userAgent: p.string().length(512).nullable(),
    requestId: p.string().length(64).nullable(),
    previousHash: p.string().length(64),
    hash: p.string().length(64),
  },
});
export type AuditEventRecord = InferEntity<typeof AuditEventRecord>;

/**
 * The audit trail's head (one row, id 1): the last entry's sequence and hash. Appending locks it first, so servers
 * sharing a database append one at a time, each after the other's entry.
 */
export const AuditChainHeadRecord = defineEntity({
  name: 'AuditChainHeadRecord',
  tableName: 'audit_chain_head',
  properties: {
    id: p.integer().primary().autoincrement(false),
    sequence: p.integer(),
    hash: p.string().length(64),
  },
});
export type AuditChainHeadRecord = InferEntity<typeof AuditChainHeadRecord>;

/**
 * A single sign-on attempt between its start and the provider's answer: what the callback checks it against.
 * The cookie carries a random id; this row only its SHA-256 hash. Deleted when used or ten minutes old.
 */
export const SsoAttemptRecord = defineEntity({
  name: 'SsoAttemptRecord',
  tableName: 'sso_attempt',
  properties: {
    /** SHA-256 of the cookie's random id, hex. */
    id: p.string().length(64).primary(),
    state: p.string().length(128),
    nonce: p.string().length(128),
    /** The PKCE code verifier. */
    codeVerifier: p.string().length(128),
    redirectUrl: p.string().length(2048),
    createdAt: p.datetime().index(),
  },
});
export type SsoAttemptRecord = InferEntity<typeof SsoAttemptRecord>;

/**
 * A way for hosts to join with one command (see `enrollment/`): its secret and its alias of the license key, both
 * known only by their SHA-256 hashes, and what enrolled hosts are labelled with. Revoking it stops its script only.
 */
export const EnrollmentRecord = defineEntity({
  name: 'EnrollmentRecord',
  tableName: 'enrollment',
  properties: {
    id: p.uuid().primary(),
    secretHash: p.string().length(64).unique(),
    /** SHA-256 of the key-shaped alias derived from the secret, which enrolled hosts send as their license key. */
    aliasHash: p.string().length(64).unique(),
    licenseKeyId: p.uuid().index(),
    /** JSON arrays of the system groups and tags written into enrolled hosts' profiles. */
    systemGroups: p.text(),
    tags: p.text(),
    customer: p.string().length(255).nullable(),
    /** After this time the script is no longer served (the alias keeps working). */
    expiresAt: p.datetime(),
    /** Most hosts that may enroll with it; null: no maximum. */
    maxHosts: p.integer().nullable(),
    createdAt: p.datetime(),
    /** Who created it: a person's email, or a token's label. */
    createdBy: p.string().length(255).nullable(),
    revokedAt: p.datetime().nullable(),
    /** When its script was last fetched. */
    lastUsedAt: p.datetime().nullable(),
  },
});
export type EnrollmentRecord = InferEntity<typeof EnrollmentRecord>;

/**
 * A warning or suggestion of one host (by kind and test id) across its reports, with a lifecycle (see
 * `findings/`): `open`, `acknowledged`, `accepted`, `resolved` or `regressed`, its owner, due date and accepted risk.
 */
export const FindingRecord = defineEntity({
  name: 'FindingRecord',
  tableName: 'finding',
  properties: {
    id: p.uuid().primary(),
    hostRecordId: p.uuid(),
    kind: p.string().length(16),
    testId: p.string().length(64),
    /** The text of the newest report that had it. */
    text: p.string().length(255),
    state: p.string().length(16),
    stateSince: p.datetime(),
    ownerUserId: p.uuid().nullable(),
    dueAt: p.datetime().nullable(),
    acceptReason: p.text().nullable(),
    acceptRequestedBy: p.string().length(255).nullable(),
    acceptApproverId: p.uuid().nullable(),
    acceptExpiresAt: p.datetime().nullable(),
    firstSeen: p.datetime(),
    lastSeen: p.datetime(),
    resolvedAt: p.datetime().nullable(),
    regressions: p.integer().default(0),
  },
  uniques: [{ properties: ['hostRecordId', 'kind', 'testId'] }],
  // The fleet's findings by state, oldest first; a person's findings; accepted risks by expiry.
  indexes: [{ properties: ['state', 'firstSeen'] }, { properties: ['firstSeen', 'id'] }, { properties: ['ownerUserId'] }, { properties: ['acceptExpiresAt'] }],
});
export type FindingRecord = InferEntity<typeof FindingRecord>;

/** One change of a finding's state: who (a person's email, a token's name, or null for the server), when and why. */
export const FindingTransitionRecord = defineEntity({
  name: 'FindingTransitionRecord',
  tableName: 'finding_transition',
  properties: {
    id: p.uuid().primary(),
    findingId: p.uuid(),
    fromState: p.string().length(16).nullable(),
    toState: p.string().length(16),
    at: p.datetime(),
    actor: p.string().length(255).nullable(),
    reason: p.text().nullable(),
    /** On a resolution: when the episode it ends began (the finding's first sighting, or the regression before). */
    episodeStartedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['findingId', 'at'] }, { properties: ['at'] }, { properties: ['toState', 'at'] }],
});
export type FindingTransitionRecord = InferEntity<typeof FindingTransitionRecord>;

/**
 * Each version of a policy as saved (created, updated, enabled, disabled, quarantined), written in the transaction
 * that saves it; a deletion adds a last version marked `deleted`. The version in force at a moment is the newest
 * saved by then (see `compliance/`).
 */
export const PolicyVersionRecord = defineEntity({
  name: 'PolicyVersionRecord',
  tableName: 'policy_version',
  properties: {
    policyId: p.uuid().primary(),
    revision: p.integer().primary(),
    name: p.string().length(100),
    enabled: p.boolean(),
    scopeKeyId: p.uuid().nullable(),
    scopeGroup: p.string().length(255).nullable(),
    scopeTag: p.string().length(255).nullable(),
    scopeHostname: p.string().length(255).nullable(),
    rules: p.text(),
    savedAt: p.datetime(),
    deleted: p.boolean().default(false),
  },
});
export type PolicyVersionRecord = InferEntity<typeof PolicyVersionRecord>;

/** A deleted waiver (by an operator, or with its policy), kept so that the waivers in force at a past moment are known. */
export const WaiverHistoryRecord = defineEntity({
  name: 'WaiverHistoryRecord',
  tableName: 'waiver_history',
  properties: {
    id: p.uuid().primary(),
    policyId: p.uuid(),
    ruleId: p.string().length(64).nullable(),
    hostRecordId: p.uuid().nullable(),
    groupName: p.string().length(255).nullable(),
    reason: p.text(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
    createdBy: p.string().length(255).nullable(),
    deletedAt: p.datetime(),
  },
});
export type WaiverHistoryRecord = InferEntity<typeof WaiverHistoryRecord>;

/**
 * The compliance as of the end of one UTC day (see `compliance/compliance-snapshots.ts`): over every policy (the nil
 * UUID) or one, of the fleet, of one group or of one customer (lowered); the open findings on the all-policies rows
 * only. Written once the day is over, never changed.
 */
export const ComplianceSnapshotRecord = defineEntity({
  name: 'ComplianceSnapshotRecord',
  tableName: 'compliance_snapshot',
  properties: {
    /** `YYYY-MM-DD`. */
    day: p.string().length(10).primary(),
    policyId: p.uuid().primary(),
    /** `fleet`, `group` or `customer`. */
    scopeKind: p.string().length(8).primary(),
    /** The group or customer, lowered; empty for the fleet. */
    scopeValue: p.string().length(255).primary(),
    compliant: p.integer(),
    noncompliant: p.integer(),
    accepted: p.integer(),
    unknown: p.integer(),
    openWarning: p.integer().nullable(),
    openSuggestion: p.integer().nullable(),
    acceptedFindings: p.integer().nullable(),
    takenAt: p.datetime(),
  },
});
export type ComplianceSnapshotRecord = InferEntity<typeof ComplianceSnapshotRecord>;

/**
 * The default time-to-fix answer (the fleet over the last 90 days), taken in the background and replaced every few
 * minutes (see `findings/time-to-fix-snapshot.ts`): one row per setting of `--lynis-own-findings`, the answer as JSON,
 * and how long it took to compute.
 */
export const TimeToFixSnapshotRecord = defineEntity({
  name: 'TimeToFixSnapshotRecord',
  tableName: 'time_to_fix_snapshot',
  properties: {
    /** `hide` or `show`: whether Lynis' own finding was left out. */
    lynisOwnFindings: p.string().length(4).primary(),
    figures: p.text(),
    takenAt: p.datetime(),
    /** How long computing it took: a quick answer is not read from here but computed each time. */
    tookMs: p.integer(),
  },
});
export type TimeToFixSnapshotRecord = InferEntity<typeof TimeToFixSnapshotRecord>;

/**
 * A control of a framework as an imported mapping file gives it (see `controls/`): its title and the Lynis test ids
 * and rule ids mapped to it (JSON arrays). The framework is stored as the file spells it; an import replaces it whole.
 */
export const FrameworkControlRecord = defineEntity({
  name: 'FrameworkControlRecord',
  tableName: 'framework_control',
  properties: {
    id: p.uuid().primary(),
    framework: p.string().length(40),
    controlId: p.string().length(64),
    title: p.string().length(500).nullable(),
    testIds: p.text(),
    ruleIds: p.text(),
    importedAt: p.datetime(),
  },
  uniques: [{ properties: ['framework', 'controlId'] }],
});
export type FrameworkControlRecord = InferEntity<typeof FrameworkControlRecord>;

/** A scheduled digest: whose figures (the fleet, a system group or a customer), how often, and to whom it is sent. */
export const DigestScheduleRecord = defineEntity({
  name: 'DigestScheduleRecord',
  tableName: 'digest_schedule',
  properties: {
    id: p.uuid().primary(),
    /** The scope: a system group, a customer, or neither (the fleet). */
    scopeGroup: p.string().length(255).nullable(),
    scopeCustomer: p.string().length(255).nullable(),
    /** `weekly` or `monthly`. */
    cadence: p.string().length(16),
    /** The recipients' addresses, as a JSON array. */
    recipients: p.text(),
    createdAt: p.datetime(),
    createdBy: p.string().length(255).nullable(),
    lastIssuedAt: p.datetime().nullable(),
    /** The end of the next period: its digest is issued once this time has passed. */
    nextDueAt: p.datetime().index(),
  },
});
export type DigestScheduleRecord = InferEntity<typeof DigestScheduleRecord>;

/** A digest as issued: its figures frozen as JSON, and its email's delivery (retried with backoff, then `failed`). */
export const DigestRecord = defineEntity({
  name: 'DigestRecord',
  tableName: 'digest',
  properties: {
    id: p.uuid().primary(),
    /** Null once the schedule is deleted. */
    scheduleId: p.uuid().nullable(),
    scopeGroup: p.string().length(255).nullable(),
    scopeCustomer: p.string().length(255).nullable(),
    cadence: p.string().length(16),
    periodStart: p.datetime(),
    periodEnd: p.datetime(),
    createdAt: p.datetime().index(),
    /** The recipients when it was issued, as a JSON array. */
    recipients: p.text(),
    /** The contract's `DigestContent`, as JSON. */
    content: p.text(),
    /** `pending`, `sent`, `failed` or `skipped`. */
    status: p.string().length(16),
    attempts: p.integer().default(0),
    lastError: p.string().length(500).nullable(),
    nextAttemptAt: p.datetime().nullable(),
    /** A sender's claim: others leave the digest alone until then. */
    claimedUntil: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['status', 'nextAttemptAt'] }],
});
export type DigestRecord = InferEntity<typeof DigestRecord>;

/** Every entity, for opening the database. */
export const ENTITIES = [
  LicenseKeyRecord,
  HostRecord,
  HostAliasRecord,
  ReportRecord,
  HostLabelRecord,
  HostFindingRecord,
  FindingCountRecord,
  AdminTokenRecord,
  WriteProbeRecord,
  RejectionRecord,
  PolicyRecord,
  PolicyRunRecord,
  PolicyResultRecord,
  PolicyStatusCountRecord,
  PolicyResultChangeRecord,
  PolicyEvaluationRecord,
  WaiverRecord,
  ComplianceDayRecord,
  WebhookRecord,
  WebhookEventRecord,
  WebhookDeliveryRecord,
  WebhookFoldRecord,
  WebhookNoticeRecord,
  KeyHostQuotaRecord,
  UserRecord,
  SessionRecord,
  EnrollmentRecord,
  SsoAttemptRecord,
  AuditEventRecord,
  AuditChainHeadRecord,
  FindingRecord,
  FindingTransitionRecord,
  PolicyVersionRecord,
  WaiverHistoryRecord,
  ComplianceSnapshotRecord,
  TimeToFixSnapshotRecord,
  FrameworkControlRecord,
  DigestScheduleRecord,
  DigestRecord,
];
