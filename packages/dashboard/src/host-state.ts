// A host's lifecycle state in words: its badge, why it is in it, the hosts list's State filter, and what a change of
// state did.
import type { Host, HostState, HostStateReason } from '@org/audit-client/sdk';
import { formatTime } from './format.js';
import type { HostStateFilter } from './route.js';

/** The State filter's choices as the form reads them; `current` is the list's default (no `state` in the URL). */
export const HOST_STATE_FILTER_TEXT: Record<HostStateFilter | 'current', string> = {
  current: 'Current (active and stale)',
  active: 'Active',
  stale: 'Stale',
  decommissioned: 'Decommissioned',
  all: 'All',
};

/** A state as its badge reads. */
export const HOST_STATE_TEXT: Record<HostState, string> = { active: 'Active', stale: 'Stale', decommissioned: 'Decommissioned' };

/** Why a host is in its state, as a sentence's end ("… since 3 Nov: <reason>"). */
const REASON_TEXT: Record<HostStateReason, string> = {
  reporting: 'it is reporting',
  'no-report': 'no report for longer than the stale threshold',
  operator: 'changed by an operator',
  'group-expiry': "no report within its group's expiry time",
  'auto-purge': 'a short-lived host (allow-auto-purge) that stopped reporting',
};

/** Why a host is in its state, in words. */
export const stateReasonText = (reason: HostStateReason): string => REASON_TEXT[reason];

/** A host's state, since when and why, in one line: "Decommissioned since 2026-11-20 08:00:00 UTC: changed by an operator". */
export function hostStateLine(host: Pick<Host, 'state' | 'stateSince' | 'stateReason'>, timeZone?: string): string {
  return `${HOST_STATE_TEXT[host.state]} since ${formatTime(host.stateSince, timeZone)}: ${stateReasonText(host.stateReason)}`;
}

/** What a bulk change of state asks the server to do. */
export type StateAction = 'decommission' | 'reactivate';

/** "2 of 3 hosts decommissioned": how many of the hosts selected changed (the others were in that state already). */
export function statesChangedMessage(action: StateAction, changed: number, hosts: number): string {
  const done = action === 'decommission' ? 'decommissioned' : 'reactivated';
  const selected = hosts === 1 ? '1 host' : `${hosts.toLocaleString('en')} hosts`;
  const others = action === 'decommission' ? 'the others were decommissioned already' : 'the others were not decommissioned';
  return `${changed.toLocaleString('en')} of ${selected} ${done}${changed < hosts ? ` (${others})` : ''}.`;
}

/**
 * The bulk state actions that can change hosts of the list shown: a list without decommissioned hosts offers no
 * reactivation, a list of decommissioned hosts alone no decommission.
 */
export function bulkStateActions(state: HostStateFilter | undefined): StateAction[] {
  if (state === 'decommissioned') return ['reactivate'];
  if (state === 'all') return ['decommission', 'reactivate'];
  return ['decommission'];
}

/** Whether what was typed to confirm a host's deletion names it: its host name or its id, exactly (spaces around ignored). */
export function confirmsHost(typed: string, host: Pick<Host, 'id' | 'hostname'>): boolean {
  const text = typed.trim();
  return text !== '' && (text === host.id || text === host.hostname);
}
