// How refused uploads and license checks read on the pages that list them.
import type { LicenseKeyInfo, RejectionGroup } from '@org/audit-client/sdk';
import { hrefOf } from './route.js';

/** The reasons a server refuses, with what each means for the host losing its report. */
export const REASONS: Record<string, string> = {
  'invalid-key': 'key unknown, revoked or expired',
  'invalid-data': 'report unreadable',
  'not-a-report': 'not a finished Lynis report',
  'host-identity-changed': "another hostid2 than the host's: accept it on the host's page",
  'host-quota-exceeded': "the key's quota of new hosts is reached",
  'invalid-request': 'field missing or invalid',
  malformed: 'body unreadable',
  'unsupported-type': 'not a form',
  'too-large': 'report too large',
  'method-not-allowed': 'wrong method',
  'rate-limited': 'over a rate limit',
  busy: 'server busy',
  'too-slow': 'sent too slowly',
  unavailable: 'database unavailable',
};

/** The host id as sent (text only, never markup), or why there is none. */
export function hostOf(item: RejectionGroup): string {
  if (item.folded) return "(many hosts: over the server's bound)";
  return item.hostId ?? '(none sent)';
}

/**
 * Where a refusal's host id leads: the hosts list filtered by that `hostid`, which lists the known host (or says
 * none matches); none when the refusal names no host id.
 */
export function hostLinkOf(item: RejectionGroup): string | undefined {
  return item.hostId === null || item.folded ? undefined : hrefOf({ page: 'hosts', offset: 0, hostId: item.hostId });
}

/** A key by its label and first characters, or its id when it is not listed. */
export function keyOf(keyId: string | null, keys: Map<string, LicenseKeyInfo>): string {
  if (keyId === null) return 'unknown key';
  const key = keys.get(keyId);
  return key ? `${key.label ?? '(no label)'} · ${key.prefix}…` : keyId;
}

/** The client addresses of a refusal, and how many more there were. */
export function addressesOf(item: RejectionGroup): string {
  const more = item.addressCount - item.remoteAddresses.length;
  return item.remoteAddresses.join(', ') + (more > 0 ? ` and ${more} more` : '') || '—';
}
