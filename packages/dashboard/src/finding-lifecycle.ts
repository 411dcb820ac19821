// A tracked finding's lifecycle in words and requests: its state's badge text, which findings are listed apart, what
// the acknowledge and accept forms send, and the tracked findings' filters as the API takes them.
import type { Finding, FindingKind, FindingState, FindingUpdate, ListTrackedFindingsData, ReportSummary, TrackedFinding } from '@org/audit-client/sdk';
import { startOfLocalDay } from './date-input.js';
import { formatTime } from './format.js';

/** The contract's finding states, in the order a finding lives through them. */
export const FINDING_STATES: readonly FindingState[] = ['open', 'acknowledged', 'accepted', 'resolved', 'regressed'];

/** A state as its badge reads: the words are always there, the badge's colour only repeats them. */
export const FINDING_STATE_TEXT: Record<FindingState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  accepted: 'Accepted',
  resolved: 'Resolved',
  regressed: 'Regressed',
};

/** The longest reason the contract takes. */
export const MAX_ACCEPT_REASON_LENGTH = 1000;

/** A host's findings in two lists: those still to handle (every state but resolved), and the resolved ones, listed apart. */
export function splitResolved<T extends Pick<TrackedFinding, 'state'>>(findings: readonly T[]): { current: T[]; resolved: T[] } {
  return { current: findings.filter((finding) => finding.state !== 'resolved'), resolved: findings.filter((finding) => finding.state === 'resolved') };
}

/** The newest report's details and solution of each finding, by kind and test id (where a report has two, the first). */
export function reportedDetails(summary: Pick<ReportSummary, 'warnings' | 'suggestions'> | null | undefined): Map<string, Finding> {
  const details = new Map<string, Finding>();
  const add = (kind: string, findings: Finding[]) =>
    findings.forEach((finding) => details.has(`${kind}:${finding.testId}`) || details.set(`${kind}:${finding.testId}`, finding));
  add('warning', summary?.warnings ?? []);
  add('suggestion', summary?.suggestions ?? []);
  return details;
}

/** The key of a finding in {@link reportedDetails}. */
export const detailsKey = (finding: Pick<TrackedFinding, 'kind' | 'testId'>): string => `${finding.kind}:${finding.testId}`;

/** What an operator may do with a finding in its state: a resolved one only comes back with a report (409 otherwise). */
export function findingActions(state: FindingState): Array<'acknowledge' | 'accept' | 'reopen'> {
  if (state === 'resolved') return [];
  const reopen = state === 'acknowledged' || state === 'accepted' ? (['reopen'] as const) : [];
  return ['acknowledge', 'accept', ...reopen];
}

/** A state with since when, as its badge's hover text says it, and how often the finding came back. */
export function findingStateLine(finding: Pick<TrackedFinding, 'state' | 'stateSince' | 'regressions'>, timeZone?: string): string {
  const back = finding.regressions > 0 ? `; came back ${finding.regressions === 1 ? 'once' : `${finding.regressions} times`}` : '';
  return `${FINDING_STATE_TEXT[finding.state]} since ${formatTime(finding.stateSince, timeZone)}${back}`;
}

/** What the acknowledge form sends: the owner (none: the signed-in person) and the due day (a local day's start), when given. */
export function acknowledgementOf({ owner, due }: { owner: string; due: string }): FindingUpdate {
  return { state: 'acknowledged', ...(owner ? { ownerUserId: owner } : {}), ...(due ? { dueAt: startOfLocalDay(due) } : {}) };
}

/** What the accept form sends, or why it cannot be sent yet (the server's own refusals are shown as it words them). */
export function acceptanceOf({ reason, expires, approver }: { reason: string; expires: string; approver: string }, today: string): FindingUpdate | string {
  if (!reason.trim()) return 'Say why the risk is accepted.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expires)) return 'Choose the day the acceptance ends.';
  if (expires <= today) return 'The acceptance must end after today.';
  if (!approver) return 'Choose who approves it.';
  return { state: 'accepted', reason: reason.trim(), expiresAt: startOfLocalDay(expires), approverUserId: approver };
}

/** The tracked findings' filters, each of which lives in the URL. */
export interface TrackedFilters {
  states?: FindingState[];
  /** A person's id, or `me`. */
  owner?: string;
  group?: string;
  kind?: FindingKind;
  testId?: string;
  /** Only findings first seen at least this many days ago. */
  minAgeDays?: number;
}

/** The `listTrackedFindings` query of the filters and page. */
export function trackedQuery(filters: TrackedFilters, page: { limit: number; offset: number }): NonNullable<ListTrackedFindingsData['query']> {
  const { states, owner, group, kind, testId, minAgeDays } = filters;
  return { ...page, state: states?.length ? states : undefined, owner, group, kind, testId, minAgeDays };
}

/** Whether any filter narrows the list (its empty caption says "no such finding" rather than "none"). */
export const filtered = (filters: TrackedFilters): boolean =>
  Object.values(filters).some((value) => value !== undefined && !(Array.isArray(value) && value.length === 0));
