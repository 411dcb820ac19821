import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { PolicyInput, PolicyScope, Rule, RuleError } from '../generated/types.gen.js';
import { isRecordId, type PolicyRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { Database } from '../database/dialect.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import { sqlDialectOf } from '../database/dialects.js';
import { moveWaiversToHistory } from '../compliance/waiver-history.js';
import { recordPolicyDeletion, recordPolicyVersion } from '../compliance/policy-versions.js';
import { recountFleet } from './policy-counts.js';
import { budgetErrors } from './rule-checks.js';
import { compileRule, isExpressionError, type CompiledRule } from './rule-expression.js';

/** A policy as stored, its rules read back from JSON. */
export interface StoredPolicy {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  scope: Required<PolicyScope>;
  rules: Rule[];
  createdAt: Date;
  updatedAt: Date;
  revision: number;
  /** Set when the evaluator disabled the policy (see `policy-quarantine.ts`). */
  quarantine: { at: Date; reason: string } | null;
}

type PolicyRow = ReadRowOf<PolicyRecord>;

/** Checks every rule of a policy: duplicate ids and expressions that do not check are a {@link DomainError} naming each. */
export function checkRules(rules: Rule[]): Map<string, CompiledRule> {
  const errors: RuleError[] = [];
  const compiled = new Map<string, CompiledRule>();
  for (const rule of rules) {
    if (compiled.has(rule.id) || errors.some((error) => error.ruleId === rule.id)) {
      errors.push({ ruleId: rule.id, position: null, message: 'another rule of the policy has this id' });
      continue;
    }
    const result = compileRule(rule.expression);
    if (isExpressionError(result)) errors.push({ ruleId: rule.id, ...result });
    else compiled.set(rule.id, result);
  }
  if (errors.length > 0) {
    const detail = errors.map((error) => `rule ${error.ruleId}: ${error.message}${error.position === null ? '' : ` (at ${error.position})`}`).join('; ');
    throw new DomainError('invalid', detail, { errors });
  }
  return compiled;
}

/** Every policy, by name. */
export async function listPolicies(database: Database): Promise<StoredPolicy[]> {
  const rows = (await database.em.getKnex()('policy').select('*').orderBy('name')) as PolicyRow[];
  return rows.map(toPolicy);
}

export async function findPolicy(database: Database, id: string): Promise<StoredPolicy | undefined> {
  // No policy has an id that is no UUID; PostgreSQL would refuse the query with its SQL (the CLI takes any text).
  if (!isRecordId(id)) return undefined;
  const [row] = (await database.em.getKnex()('policy').select('*').where('id', id)) as PolicyRow[];
  return row && toPolicy(row);
}

/**
 * Checks every rule as {@link checkRules} does, then runs them on a large synthetic report under the evaluation
 * budget (`rule-checks.ts`): a rule over it is refused, `position` null and the message naming the budget.
 */
export async function checkRulesAndBudgets(rules: Rule[]): Promise<void> {
  checkRules(rules);
  const errors = await budgetErrors(rules);
  if (errors.length > 0) throw new DomainError('invalid', errors.map((error) => `rule ${error.ruleId}: ${error.message}`).join('; '), { errors });
}

/** Saves a new policy after checking its rules; a {@link DomainError} when they do not check or the name is taken. */
export async function createPolicy(database: Database, input: PolicyInput, now = new Date()): Promise<StoredPolicy> {
  await checkRulesAndBudgets(input.rules);
  const id = randomUUID();
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  await withUniqueName(input.name, () =>
    database.em.getKnex().transaction(async (trx) => {
      await trx('policy').insert({ id, ...columnsOf(input), created_at: time, updated_at: time, revision: 1 });
      await recordPolicyVersion(trx, id, time);
    }),
  );
  return (await findPolicy(database, id))!;
}

/** Replaces a policy's name, scope and rules (clearing a quarantine); results are brought up to date by the evaluator. */
export async function updatePolicy(database: Database, id: string, input: PolicyInput, now = new Date()): Promise<StoredPolicy> {
  await checkRulesAndBudgets(input.rules);
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const updated = await withUniqueName<number>(input.name, () =>
    database.em.getKnex().transaction(async (trx) => {
      const count = await trx('policy')
        .where('id', id)
        .update({ ...columnsOf(input), ...UNQUARANTINED, updated_at: time, revision: trx.raw('revision + 1') });
      await recordPolicyVersion(trx, id, time);
      return count;
    }),
  );
  if (updated === 0) throw notFound('policy', id);
  return (await findPolicy(database, id))!;
}

/** The columns of a policy that is not quarantined and has no strike. */
const UNQUARANTINED = { strikes: 0, quarantined_at: null, quarantine_reason: null };

/**
 * Enables or disables a policy without touching its rules (the CLI's `policies enable|disable`, which works with
 * the server down); enabling checks the rules against the budget, as saving does, and clears a quarantine. A
 * {@link DomainError}: `not_found` when there is no such policy, `invalid` when a rule is over its budget.
 */
export async function setPolicyEnabled(database: Database, id: string, enabled: boolean, now = new Date()): Promise<StoredPolicy> {
  const policy = await findPolicy(database, id);
  if (!policy) throw notFound('policy', id);
  if (enabled) await checkRulesAndBudgets(policy.rules);
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const updated = await database.em.getKnex().transaction(async (trx) => {
    const count = await trx('policy')
      .where('id', id)
      .update({ enabled, ...(enabled ? UNQUARANTINED : {}), updated_at: time, revision: trx.raw('revision + 1') });
    await recordPolicyVersion(trx, id, time);
    return count;
  });
  if (updated === 0) throw notFound('policy', id);
  return (await findPolicy(database, id))!;
}

/**
 * Deletes a policy with its results, their counts and its waivers, in one transaction. Its versions, its results'
 * changes and its waivers (moved to their history) are kept: compliance at a moment before still counts it.
 */
export async function deletePolicy(database: Database, id: string, now = new Date()): Promise<void> {
  if (!isRecordId(id)) throw notFound('policy', id);
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  await database.em.getKnex().transaction(async (trx) => {
    await recordPolicyDeletion(trx, id, time);
    const deleted = await trx('policy').where('id', id).delete();
    if (deleted === 0) throw notFound('policy', id);
    await moveWaiversToHistory(trx, (waivers) => void waivers.where('policy_id', id), time);
    for (const table of ['policy_result', 'policy_status_count', 'policy_run']) await trx(table).where('policy_id', id).delete();
    await recountFleet(trx);
  });
}

/**
 * A fingerprint of the enabled policies' ids and revisions: a host evaluated under another fingerprint is out of
 * date. `none` when no policy is enabled.
 */
export function policySetOf(policies: StoredPolicy[]): string {
  const enabled = policies
    .filter((policy) => policy.enabled)
    .map((policy) => `${policy.id}:${policy.revision}`)
    .sort();
  return enabled.length === 0 ? 'none' : createHash('sha256').update(enabled.join('\n')).digest('hex');
}

/** A policy's scope as stored: the key id in lower case, a condition not given null. */
export function scopeOf(scope: PolicyInput['scope'] = {}): Required<PolicyScope> {
  return { keyId: scope.keyId?.toLowerCase() ?? null, group: scope.group ?? null, tag: scope.tag ?? null, hostname: scope.hostname ?? null };
}

function columnsOf(input: PolicyInput) {
  const scope = scopeOf(input.scope);
  return {
    name: input.name,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    scope_key_id: scope.keyId,
    scope_group: scope.group,
    scope_tag: scope.tag,
    scope_hostname: scope.hostname,
    rules: JSON.stringify(
      // A rule's controls are stored with it only when given, so that rules without them read back as they were saved.
      input.rules.map((rule) => ({
        id: rule.id,
        description: rule.description ?? null,
        ...(rule.controls === undefined ? {} : { controls: rule.controls }),
        expression: rule.expression,
      })),
    ),
  };
}

/** Runs a write, turning the unique index on `name` refusing it into a 409. */
async function withUniqueName<T>(name: string, write: () => Knex.QueryBuilder | Promise<T>): Promise<T> {
  try {
    return (await write()) as T;
  } catch (error) {
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new DomainError('conflict', `A policy named ${JSON.stringify(name)} exists`);
    throw error;
  }
}

function toPolicy(row: PolicyRow): StoredPolicy {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: Boolean(row.enabled),
    scope: { keyId: row.scope_key_id, group: row.scope_group, tag: row.scope_tag, hostname: row.scope_hostname },
    rules: JSON.parse(row.rules) as Rule[],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    revision: Number(row.revision),
    quarantine: row.quarantined_at === null ? null : { at: new Date(row.quarantined_at), reason: row.quarantine_reason ?? '' },
  };
}
