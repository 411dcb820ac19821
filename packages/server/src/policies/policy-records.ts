import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { PolicyInput, PolicyScope, Rule, RuleError } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { recountFleet } from './policy-counts.js';
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
}

/** Why a policy cannot be saved: `invalid` (400, with the rules' errors), `conflict` (409), `not-found` (404). */
export class PolicyError extends Error {
  override name = 'PolicyError';
  constructor(
    readonly code: 'invalid' | 'conflict' | 'not-found',
    readonly detail: string,
    readonly ruleErrors: RuleError[] = [],
  ) {
    super(detail);
  }
}

interface PolicyRow {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean | number;
  scope_key_id: string | null;
  scope_group: string | null;
  scope_tag: string | null;
  scope_hostname: string | null;
  rules: string;
  created_at: Date | number;
  updated_at: Date | number;
  revision: number;
}

/** Checks every rule of a policy: duplicate ids and expressions that do not check are a {@link PolicyError} naming each. */
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
    throw new PolicyError('invalid', detail, errors);
  }
  return compiled;
}

/** Every policy, by name. */
export async function listPolicies(database: Database): Promise<StoredPolicy[]> {
  const rows = (await database.em.getKnex()('policy').select('*').orderBy('name')) as PolicyRow[];
  return rows.map(toPolicy);
}

export async function findPolicy(database: Database, id: string): Promise<StoredPolicy | undefined> {
  const [row] = (await database.em.getKnex()('policy').select('*').where('id', id)) as PolicyRow[];
  return row && toPolicy(row);
}

/** Saves a new policy after checking its rules; a {@link PolicyError} when they do not check or the name is taken. */
export async function createPolicy(database: Database, input: PolicyInput, now = new Date()): Promise<StoredPolicy> {
  checkRules(input.rules);
  const id = randomUUID();
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  await withUniqueName(input.name, () =>
    database.em.getKnex()('policy').insert({ id, ...columnsOf(input), created_at: time, updated_at: time, revision: 1 }),
  );
  return (await findPolicy(database, id))!;
}

/** Replaces a policy's name, scope and rules; results are brought up to date by the evaluator. */
export async function updatePolicy(database: Database, id: string, input: PolicyInput, now = new Date()): Promise<StoredPolicy> {
  checkRules(input.rules);
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const updated = await withUniqueName(input.name, () =>
    database.em.getKnex()('policy').where('id', id).update({ ...columnsOf(input), updated_at: time, revision: database.em.getKnex().raw('revision + 1') }),
  );
  if (updated === 0) throw new PolicyError('not-found', `No policy with id ${id}`);
  return (await findPolicy(database, id))!;
}

/** Deletes a policy with its results, their counts, their history and its waivers, in one transaction. */
export async function deletePolicy(database: Database, id: string): Promise<void> {
  await database.em.getKnex().transaction(async (trx) => {
    const deleted = await trx('policy').where('id', id).delete();
    if (deleted === 0) throw new PolicyError('not-found', `No policy with id ${id}`);
    for (const table of ['policy_result', 'policy_status_count', 'policy_result_change', 'waiver']) await trx(table).where('policy_id', id).delete();
    await recountFleet(trx);
  });
}

/**
 * A fingerprint of the enabled policies' ids and revisions: a host evaluated under another fingerprint is out of
 * date. `none` when no policy is enabled.
 */
export function policySetOf(policies: StoredPolicy[]): string {
  const enabled = policies.filter((policy) => policy.enabled).map((policy) => `${policy.id}:${policy.revision}`).sort();
  return enabled.length === 0 ? 'none' : createHash('sha256').update(enabled.join('\n')).digest('hex');
}

function columnsOf(input: PolicyInput) {
  const scope = input.scope ?? {};
  return {
    name: input.name,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    scope_key_id: scope.keyId?.toLowerCase() ?? null,
    scope_group: scope.group ?? null,
    scope_tag: scope.tag ?? null,
    scope_hostname: scope.hostname ?? null,
    rules: JSON.stringify(input.rules.map((rule) => ({ id: rule.id, description: rule.description ?? null, expression: rule.expression }))),
  };
}

/** Runs a write, turning the unique index on `name` refusing it into a 409. */
async function withUniqueName<T>(name: string, write: () => Knex.QueryBuilder | Promise<T>): Promise<T> {
  try {
    return (await write()) as T;
  } catch (error) {
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new PolicyError('conflict', `A policy named ${JSON.stringify(name)} exists`);
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
  };
}
