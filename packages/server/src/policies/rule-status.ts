import type { RuleStatus } from '../generated/types.gen.js';

/** Statuses from worst to best: a host's status on a policy is its worst rule's, and over the fleet its worst policy's. */
export const RANK: Record<RuleStatus, number> = { fail: 4, error: 3, waived: 2, pass: 1 };

/** The status of each {@link RANK}. */
export const STATUS_OF_RANK = Object.fromEntries(Object.entries(RANK).map(([status, rank]) => [rank, status])) as Record<number, RuleStatus>;

/** A `status` column's {@link RANK} in SQL (the statuses are constants, never request input). */
export const RANK_SQL = `case status ${Object.entries(RANK)
  .map(([status, value]) => `when '${status}' then ${value}`)
  .join(' ')} end`;

/** The worse of a status so far (none yet: undefined) and another. */
export function worse(known: RuleStatus | undefined, status: RuleStatus): RuleStatus {
  return known === undefined || RANK[status] > RANK[known] ? status : known;
}
