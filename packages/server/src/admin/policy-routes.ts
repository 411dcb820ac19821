import type { Policy, PolicyInput, RuleStatus, WaiverInput } from '@org/audit-server-core';
import { BASELINE_POLICY } from '../policies/baseline.js';
import {
  createPolicy as savePolicy,
  deletePolicy as removePolicy,
  findPolicy,
  listPolicies as readPolicies,
  PolicyError,
  updatePolicy as replacePolicy,
  type StoredPolicy,
} from '../policies/policy-records.js';
import { emptyCounts, hostCompliance, listResults, statusCounts } from '../policies/policy-results.js';
import { createWaiver as saveWaiver, deleteWaiver as removeWaiver, listWaivers as readWaivers } from '../policies/waivers.js';
import { findAdminToken } from '../secrets/admin-tokens.js';
import type { AdminContext, AdminOperation } from './operation.js';
import { jsonResponse, problemResponse, type AdminResponse } from './responses.js';

/** `GET /api/admin/policies`: every policy with its hosts' statuses. */
export const listPolicies: AdminOperation = async (_input, { database }) => {
  const [policies, counts] = await Promise.all([readPolicies(database), statusCounts(database)]);
  return jsonResponse(200, { items: policies.map((policy) => toPolicy(policy, counts)) });
};

/** `POST /api/admin/policies`: a new policy, its rules checked first. */
export const createPolicy: AdminOperation = (input, context) =>
  answeringPolicyErrors(async () => {
    const policy = await savePolicy(context.database, input.body as unknown as PolicyInput);
    return changed(201, policy, 'policy created', input.tokenId, context);
  });

/** `POST /api/admin/policies/baseline`: the shipped baseline policy. */
export const enableBaselinePolicy: AdminOperation = (input, context) =>
  answeringPolicyErrors(async () => {
    const policy = await savePolicy(context.database, BASELINE_POLICY);
    return changed(201, policy, 'baseline policy created', input.tokenId, context);
  });

/** `GET /api/admin/policies/{policyId}`. */
export const getPolicy: AdminOperation = async ({ params }, { database }) => {
  const policy = await findPolicy(database, params['policyId']!);
  if (!policy) return problemResponse(404, `No policy with id ${params['policyId']}`);
  return jsonResponse(200, toPolicy(policy, await statusCounts(database)));
};

/** `PUT /api/admin/policies/{policyId}`: replaced; hosts are evaluated again. */
export const updatePolicy: AdminOperation = (input, context) =>
  answeringPolicyErrors(async () => {
    const policy = await replacePolicy(context.database, input.params['policyId']!, input.body as unknown as PolicyInput);
    return changed(200, policy, 'policy updated', input.tokenId, context);
  });

/** `DELETE /api/admin/policies/{policyId}`: with its results and waivers. */
export const deletePolicy: AdminOperation = ({ params, tokenId }, { database, logger, policyEvaluator }) =>
  answeringPolicyErrors(async () => {
    await removePolicy(database, params['policyId']!);
    logger.info({ policyId: params['policyId'], adminTokenId: tokenId }, 'policy deleted');
    policyEvaluator?.wake();
    return { status: 204, headers: {}, body: '' };
  });

/** `GET /api/admin/policies/{policyId}/results`: one page of the hosts' results, failures first. */
export const listPolicyResults: AdminOperation = async ({ params, query }, { database }) => {
  const policyId = params['policyId']!;
  if (!(await findPolicy(database, policyId))) return problemResponse(404, `No policy with id ${policyId}`);
  const limit = query['limit'] as number;
  const offset = query['offset'] as number;
  const page = await listResults(database, policyId, {
    ruleId: query['ruleId'] as string | undefined,
    status: query['status'] as RuleStatus | undefined,
    limit,
    offset,
  });
  return jsonResponse(200, { ...page, limit, offset });
};

/** `GET /api/admin/hosts/{hostRecordId}/compliance`. */
export const getHostCompliance: AdminOperation = async ({ params }, { database }) => {
  const compliance = await hostCompliance(database, params['hostRecordId']!);
  return compliance ? jsonResponse(200, compliance) : problemResponse(404, `No host with id ${params['hostRecordId']}`);
};

/** `GET /api/admin/waivers`. */
export const listWaivers: AdminOperation = async ({ query }, { database }) =>
  jsonResponse(200, {
    items: await readWaivers(database, { policyId: query['policyId'] as string | undefined, includeExpired: query['includeExpired'] as boolean }),
  });

/** `POST /api/admin/waivers`: recorded with the label of the token that created it. */
export const createWaiver: AdminOperation = ({ body, tokenId }, { database, logger }) =>
  answeringPolicyErrors(async () => {
    const token = await findAdminToken(database, tokenId);
    const waiver = await saveWaiver(database, body as unknown as WaiverInput, token?.label ?? null);
    logger.info({ waiverId: waiver.id, policyId: waiver.policyId, adminTokenId: tokenId }, 'waiver created');
    return jsonResponse(201, waiver);
  });

/** `DELETE /api/admin/waivers/{waiverId}`. */
export const deleteWaiver: AdminOperation = async ({ params, tokenId }, { database, logger }) => {
  if (!(await removeWaiver(database, params['waiverId']!))) return problemResponse(404, `No waiver with id ${params['waiverId']}`);
  logger.info({ waiverId: params['waiverId'], adminTokenId: tokenId }, 'waiver deleted');
  return { status: 204, headers: {}, body: '' };
};

/** A policy that was just written: logged, evaluated soon, and answered with its current counts. */
async function changed(
  status: number,
  policy: StoredPolicy,
  message: string,
  tokenId: string,
  { database, logger, policyEvaluator }: AdminContext,
): Promise<AdminResponse> {
  logger.info({ policyId: policy.id, revision: policy.revision, adminTokenId: tokenId }, message);
  policyEvaluator?.wake();
  return jsonResponse(status, toPolicy(policy, await statusCounts(database)));
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
    hosts: counts.byPolicy.get(policy.id) ?? emptyCounts(),
    quarantine: policy.quarantine && { at: policy.quarantine.at.toISOString(), reason: policy.quarantine.reason },
  };
}

const STATUS_OF = { invalid: 400, 'not-found': 404, conflict: 409 } as const;

/** Runs a policy operation, answering its {@link PolicyError} as a problem; an invalid policy lists each rule's error. */
async function answeringPolicyErrors(operation: () => Promise<AdminResponse>): Promise<AdminResponse> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    const problem = problemResponse(STATUS_OF[error.code], error.detail);
    if (error.ruleErrors.length === 0) return problem;
    return { ...problem, body: JSON.stringify({ ...JSON.parse(problem.body as string), errors: error.ruleErrors }) };
  }
}
