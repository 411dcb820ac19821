// How the dashboard words a digest: its scope, its compliance figures and its delivery.
import type { Digest, DigestScope } from '@org/audit-client/sdk';

/** `group webservers`, `customer acme` or `the fleet`. */
export function scopeText(scope: DigestScope): string {
  if (scope.group) return `group ${scope.group}`;
  if (scope.customer) return `customer ${scope.customer}`;
  return 'the fleet';
}

/** A compliance percentage with one decimal, or `n/a` when no host's status was known. */
export const percentText = (percent: number | null | undefined): string => (percent === null || percent === undefined ? 'n/a' : `${percent.toFixed(1)}%`);

/** A change in points with its sign: `+2.1`, `−0.4`, `±0.0`; a dash when it cannot be told. */
export function changeText(points: number | null | undefined): string {
  if (points === null || points === undefined) return '—';
  return points > 0 ? `+${points.toFixed(1)}` : points < 0 ? `−${Math.abs(points).toFixed(1)}` : '±0.0';
}

/** The period as days: its end is exclusive, so the last day shown is the one before it. */
export function periodText(digest: Pick<Digest, 'periodStart' | 'periodEnd'>): string {
  const lastDay = new Date(Date.parse(digest.periodEnd) - 1).toISOString().slice(0, 10);
  return `${digest.periodStart.slice(0, 10)} to ${lastDay}`;
}

/** What each delivery status means, for a digest's list. */
export const DELIVERY_MEANINGS: Record<Digest['delivery']['status'], string> = {
  pending: 'waiting for its next attempt',
  sent: 'sent',
  failed: 'every attempt failed',
  skipped: 'no SMTP settings: not emailed',
};

/** `1 attempt`, `5 attempts`. */
export const attemptsText = (attempts: number): string => `${attempts} attempt${attempts === 1 ? '' : 's'}`;
