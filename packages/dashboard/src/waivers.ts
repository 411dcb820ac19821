import type { Waiver } from '@org/audit-client/sdk';

/** How close to its end a waiver is marked "expiring soon". */
export const EXPIRING_SOON_DAYS = 14;
const DAY_MS = 86_400_000;

/** Whether a waiver has ended, ends within {@link EXPIRING_SOON_DAYS} days, or neither. */
export function expiryState(expiresAt: string, now: Date): 'expired' | 'soon' | undefined {
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left <= EXPIRING_SOON_DAYS * DAY_MS ? 'soon' : undefined;
}

/** Who a waiver covers, by name: its host (and the host's id, to link to), its group, or every host of the policy. */
export function coverageOf(waiver: Pick<Waiver, 'hostRecordId' | 'hostname' | 'group'>): { text: string; hostRecordId?: string } {
  if (waiver.hostRecordId) return { text: waiver.hostname ?? '(no host name)', hostRecordId: waiver.hostRecordId };
  if (waiver.group) return { text: `group ${waiver.group}` };
  return { text: 'every host' };
}

/** Waivers soonest expiry first (as the server sends them; kept so whatever the order they came in). */
export function bySoonestExpiry(waivers: readonly Waiver[]): Waiver[] {
  return waivers.toSorted((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.id.localeCompare(b.id));
}
