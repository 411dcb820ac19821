import type { WaiverInput } from '@org/audit-client/sdk';
import { dateInputValue } from './date-input.js';

/** Who a waiver covers: one host (or each of the hosts selected), the hosts of a group, or every host of the policy. */
export type WaiverScope = 'host' | 'group' | 'fleet';

/** What the waiver form gives its caller. */
export interface WaiverFormValues {
  reason: string;
  /** ISO date-time: the start of the chosen day, local time. */
  expiresAt: string;
  scope: WaiverScope;
  /** The group, for the group scope. */
  group?: string;
}

/** How long a waiver runs unless the operator picks another day (or the server allows less). */
export const DEFAULT_WAIVER_DAYS = 90;
/** The longest reason the contract takes. */
export const MAX_REASON_LENGTH = 1000;

/** The local day `days` after `now`. */
function daysAfter(now: Date, days: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
}

/**
 * The days a waiver may expire on, as date input values: from tomorrow to the last day whose start is at most
 * `maxDays` days away (a waiver expires at the start of its day, so the last day is always within the server's limit).
 */
export function expiryBounds(now: Date, maxDays: number): { min: string; max: string } {
  return { min: dateInputValue(daysAfter(now, 1)), max: dateInputValue(daysAfter(now, Math.max(1, maxDays))) };
}

/** The day the form proposes: {@link DEFAULT_WAIVER_DAYS} ahead, or the last day allowed when the server allows less. */
export function defaultExpiry(now: Date, maxDays: number): string {
  return dateInputValue(daysAfter(now, Math.max(1, Math.min(DEFAULT_WAIVER_DAYS, maxDays))));
}

/** Why a chosen expiry day cannot be used, or undefined when it can (date input values compare as text). */
export function expiryProblem(day: string, now: Date, maxDays: number): string | undefined {
  const { min, max } = expiryBounds(now, maxDays);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return 'Choose the day the exception ends.';
  if (day < min) return 'The exception must end after today.';
  if (day > max) return `An exception may run for at most ${maxDays} days (until ${max}).`;
  return undefined;
}

/** The waiver the form's values ask for, on a host's result (or a rule, or a whole policy with `ruleId` null). */
export function waiverInputOf(values: WaiverFormValues, target: { policyId: string; ruleId?: string | null; hostRecordId?: string }): WaiverInput {
  const base = { policyId: target.policyId, ruleId: target.ruleId ?? null, reason: values.reason.trim(), expiresAt: values.expiresAt };
  switch (values.scope) {
    case 'host':
      if (!target.hostRecordId) throw new Error('A host waiver needs the host.');
      return { ...base, hostRecordId: target.hostRecordId };
    case 'group':
      if (!values.group) throw new Error('Choose the group.');
      return { ...base, group: values.group };
    case 'fleet':
      return base;
  }
}
