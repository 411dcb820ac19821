import { fieldChanges } from '../audit/audit-changes.js';
import type { Policy } from '../generated/types.gen.js';
import { notFound } from '../errors/domain-error.js';
import { BASELINE_POLICY } from '../policies/baseline.js';
import { previewPolicy as preview } from '../policies/policy-preview.js';
import { RuleRunner } from '../policies/rule-runner.js';
import {
  createPolicy as savePolicy,
  deletePolicy as removePolicy,
  findPolicy,
  listPolicies as readPolicies,
  updatePolicy as replacePolicy,
  type StoredPolicy,
} from '../policies/policy-records.js';
import { emptyCounts, hostCompliance, statusCounts } from '../policies/policy-results.js';
import { resultPage } from '../policies/result-search.js';
import { resultPageAsOf } from '../policies/results-as-of.js';
import { createWaiver as saveWaiver, createWaivers as saveWaivers, deleteWaiver as removeWaiver, listWaivers as readWaivers } from '../policies/waivers.js';
import { actorLabel, actorLogFields } from './actor.js';
import { asOfMoment } from './as-of.js';
import type { AdminActor, AdminContext, AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/policies`: every policy with its hosts' statuses. */
const listPolicies: AdminHandler<'listPolicies'> = async ({ actor }, { database }) => {
  const [policies, counts] = await Promise.all([readPolicies(database), statusCounts(database, actor.scope)]);
  return { status: 200, body: { items: policies.map((policy) => toPolicy(policy, counts)) } };
};

/** `POST /api/admin/policies`: a new policy, its rules checked first. */
const createPolicy: AdminHandler<'createPolicy'> = async ({ body, actor, audit }, context) => {
  const policy = await savePolicy(context.database, body);
  audit.changes = fieldChanges(undefined, policy, AUDITED_POLICY_FIELDS);
  return { status: 201, body: await changed(policy, 'policy created', actor, context) };
};

/** `POST /api/admin/policies/baseline`: the shipped baseline policy. */
const enableBaselinePolicy: AdminHandler<'enableBaselinePolicy'> = async ({ actor, audit }, context) => {
  const policy = await savePolicy(context.database, BASELINE_POLICY);
  audit.target = { type: 'policy', id: policy.id };
  audit.changes = fieldChanges(undefined, policy, AUDITED_POLICY_FIELDS);
  return { status: 201, body: await changed(policy, 'baseline policy created', actor, context) };
};

/** One worker for every preview, previews queued on it: a burst of requests cannot start a thread each. */
let previewRunner: RuleRunner | undefined;

/** `GET /api/admin/policies/baseline/preview`: each baseline rule's counts, nothing stored. */
const previewBaselinePolicy: AdminHandler<'previewBaselinePolicy'> = async ({ actor }, { database }) => {
  previewRunner ??= new RuleRunner();
  return { status: 200, body: await preview(database, actor.scope, BASELINE_POLICY, { runner: previewRunner }) };
};

/** `POST /api/admin/policies/preview`: the hosts a policy would cover and fail, its rules checked first; nothing stored. */
const previewPolicy: AdminHandler<'previewPolicy'> = async ({ body, actor }, { database }) => {
  previewRunner ??= new RuleRunner();
  return { status: 200, body: await preview(database, actor.scope, body, { runner: previewRunner }) };
};

/** `GET /api/admin/policies/{policyId}`. */
const getPolicy: AdminHandler<'getPolicy'> = async ({ path, actor }, { database }) => {
  const policy = await findPolicy(database, path.policyId);
  if (!policy) throw notFound('policy', path.policyId);
  return { status: 200, body: toPolicy(policy, await statusCounts(database, actor.scope)) };
};

/** `PUT /api/admin/policies/{policyId}`: replaced; hosts are evaluated again. */
const updatePolicy: AdminHandler<'updatePolicy'> = async ({ path, body, actor, audit }, context) => {
  const before = await findPolicy(context.database, path.policyId);
  const policy = await replacePolicy(context.database, path.policyId, body);
  audit.changes = fieldChanges(before, policy, AUDITED_POLICY_FIELDS);
  return { status: 200, body: await changed(policy, 'policy updated', actor, context) };
};

/** `DELETE /api/admin/policies/{policyId}`: with its results and waivers. */
const deletePolicy: AdminHandler<'deletePolicy'> = async ({ path, actor, audit }, { database, logger, policyEvaluator }) => {
  const before = await findPolicy(database, path.policyId);
  await removePolicy(database, path.policyId);
  audit.changes = fieldChanges(before, undefined, ['name', 'enabled']);
  logger.info({ policyId: path.policyId, ...actorLogFields(actor) }, 'policy deleted');
  policyEvaluator?.wake();
  return { status: 204 };
};

/**
 * `GET /api/admin/policies/{policyId}/results`: one page of the hosts' results, failures first unless `sort` says
 * otherwise, now or as of `at`. Validation fills in `sort` and `order` (`asc` here, unlike the host list's `desc`)
 * when absent.
 */
const listPolicyResults: AdminHandler<'listPolicyResults'> = async ({ path, query: { at, ...query }, actor }, { database }) => {
  const moment = asOfMoment(at);
  if (!(await findPolicy(database, path.policyId))) throw notFound('policy', path.policyId);
  const page = moment
    ? await resultPageAsOf(database, actor.scope, path.policyId, query, moment)
    : await resultPage(database, actor.scope, path.policyId, query);
  return { status: 200, body: { ...page, limit: query.limit, offset: query.offset } };
};

/** `GET /api/admin/hosts/{hostRecordId}/compliance`. */
const getHostCompliance: AdminHandler<'getHostCompliance'> = async ({ path, actor }, { database }) => {
  const compliance = await hostCompliance(database, actor.scope, path.hostRecordId);
  if (!compliance) throw notFound('host', path.hostRecordId);
  return { status: 200, body: compliance };
};

/** `GET /api/admin/waivers`: with the server's maximum, which forms offer as the latest expiry. */
const listWaivers: AdminHandler<'listWaivers'> = async ({ query, actor }, { database, waiverMaxDays }) => ({
  status: 200,
  body: { maxDays: waiverMaxDays, items: await readWaivers(database, actor.scope, { policyId: query.policyId, includeExpired: query.includeExpired }) },
});

/** `POST /api/admin/waivers`: recorded with the label of the token that created it. */
const createWaiver: AdminHandler<'createWaiver'> = async ({ body, actor, audit }, { database, logger, waiverMaxDays }) => {
  const waiver = await saveWaiver(database, actor.scope, body, await actorLabel(database, actor), new Date(), { maxDays: waiverMaxDays });
  audit.changes = fieldChanges(undefined, waiver, AUDITED_WAIVER_FIELDS);
  logger.info({ waiverId: waiver.id, policyId: waiver.policyId, ...actorLogFields(actor) }, 'waiver created');
  return { status: 201, body: waiver };
};

/** `POST /api/admin/waivers/bulk`: one waiver per host selected, all or none. */
const createWaivers: AdminHandler<'createWaivers'> = async ({ body, actor, audit }, { database, logger, waiverMaxDays }) => {
  const result = await saveWaivers(database, actor.scope, body, await actorLabel(database, actor), new Date(), { maxDays: waiverMaxDays });
  audit.target = { type: 'policy', id: body.policyId };
  audit.changes = { ...fieldChanges(undefined, body, ['ruleId', 'reason', 'expiresAt', 'hosts']), waivers: { before: 0, after: result.created } };
  logger.info({ policyId: body.policyId, ruleId: body.ruleId ?? null, waivers: result.created, ...actorLogFields(actor) }, 'waivers created');
  return { status: 201, body: result };
};

/** `DELETE /api/admin/waivers/{waiverId}`. */
const deleteWaiver: AdminHandler<'deleteWaiver'> = async ({ path, actor }, { database, logger }) => {
  await removeWaiver(database, actor.scope, path.waiverId);
  logger.info({ waiverId: path.waiverId, ...actorLogFields(actor) }, 'waiver deleted');
  return { status: 204 };
};

/** What the audit trail says changed of a policy and of a waiver. */
const AUDITED_POLICY_FIELDS = ['name', 'description', 'enabled', 'scope', 'rules'] as const;
const AUDITED_WAIVER_FIELDS = ['policyId', 'ruleId', 'hostRecordId', 'group', 'reason', 'expiresAt'] as const;

export const policyRoutes = {
  listPolicies,
  createPolicy,
  enableBaselinePolicy,
  previewBaselinePolicy,
  previewPolicy,
  getPolicy,
  updatePolicy,
  deletePolicy,
  listPolicyResults,
  getHostCompliance,
  listWaivers,
  createWaiver,
  createWaivers,
  deleteWaiver,
} satisfies AdminHandlers<
  | 'listPolicies'
  | 'createPolicy'
  | 'enableBaselinePolicy'
  | 'previewBaselinePolicy'
  | 'previewPolicy'
  | 'getPolicy'
  | 'updatePolicy'
  | 'deletePolicy'
  | 'listPolicyResults'
  | 'getHostCompliance'
  | 'listWaivers'
  | 'createWaiver'
  | 'createWaivers'
  | 'deleteWaiver'
>;

/** A policy that was just written: logged, evaluated soon, and answered with its current counts. */
async function changed(policy: StoredPolicy, message: string, actor: AdminActor, { database, logger, policyEvaluator }: AdminContext): Promise<Policy> {
  logger.info({ policyId: policy.id, revision: policy.revision, ...actorLogFields(actor) }, message);
  policyEvaluator?.wake();
  return toPolicy(policy, await statusCounts(database, actor.scope));
}

function toPolicy(policy: StoredPolicy, counts: Awaited<ReturnType<typeof statusCounts>>): Policy {
  return {
    id: policy.id,
    name: policy.name,
    description: policy.description,
    enabled: policy.enabled,
    scope: policy.scope,
    rules: policy.rules.map((rule) => ({ ...rule, results: counts.byRule.get(`${policy.id}\n${rule.id}`) ?? emptyCounts() })),
    createdAt: policy.createdAt.toISOString(),
    updatedAt: policy.updatedAt.toISOString(),
    revision: policy.revision,
    hosts: counts.byPolicy.get(policy.id) ?? emptyCounts(),
    quarantine: policy.quarantine && { at: policy.quarantine.at.toISOString(), reason: policy.quarantine.reason },
  };
}
