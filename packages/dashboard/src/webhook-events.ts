// How webhook events and delivery statuses read on the pages that show them.
import type { DeliveryEventType, DeliveryStatus, Webhook, WebhookEventType } from '@org/audit-client/sdk';

/**
 * Every event the contract lists, with when it is sent. Typed by the contract's enum, so an event added to the
 * contract does not compile until it is here (and gets a checkbox).
 */
export const EVENT_MEANINGS: Record<WebhookEventType, string> = {
  'report.stored': 'a report was stored',
  'host.regressed': "a host's hardening index dropped, or it has a new warning",
  'host.noncompliant': 'a host started failing a policy',
  'host.compliant': 'a host passes a policy again',
  'host.stale': 'a host sent no report for the days set below',
  'uploads.refused': 'uploads under a license key are being refused (once an hour per key and reason)',
  'key.expiring': 'a license key expires within 7 days',
  'host.identity_changed': 'a report for a known host carried another hostid2 (stored, or refused in strict mode)',
  'key.quota_reached': 'a license key reached its quota of hosts: new hosts are refused (once a day)',
  'policy.quarantined': 'a policy was quarantined (disabled): its rules overran their budget of time or size',
  'audit.event': 'an entry was added to the audit trail (a sign-in, a change, an export), for a SIEM',
  'host.enrolled': 'a host sent its first report',
  'host.decommissioned': 'a host was decommissioned (by an operator, its group expiring it, or auto-purge)',
  'host.reactivated': 'a decommissioned host is active again (reactivated, or it reported)',
  'host.merged': 'another host was merged into a host (by an operator, or automatically)',
  'host.deleted': 'a host was deleted with its reports',
  'finding.opened': 'a warning or suggestion is first seen on a host',
  'finding.resolved': "a host's later report no longer has a finding",
  'finding.regressed': 'a resolved finding is seen again',
  'finding.accepted': "a finding's risk was accepted",
  'finding.acceptance_expired': 'an accepted risk expired, and its finding is open again',
  'digest.ready': 'a scheduled digest was issued (a link to its printable page)',
};

/**
 * A delivery's event in a few words, for the delivery log: every type a delivery can carry (those a subscription
 * chooses, the folded summary and the test event), typed by the contract so that none is missing.
 */
export const DELIVERY_EVENT_NAMES: Record<DeliveryEventType, string> = {
  'report.stored': 'Report stored',
  'host.regressed': 'Host regressed',
  'host.noncompliant': 'Host noncompliant',
  'host.compliant': 'Host compliant again',
  'host.stale': 'Host stale',
  'uploads.refused': 'Uploads refused',
  'key.expiring': 'Key expiring',
  'host.identity_changed': 'Host identity changed',
  'key.quota_reached': 'Key quota reached',
  'policy.quarantined': 'Policy quarantined',
  'audit.event': 'Audit event',
  'host.enrolled': 'Host enrolled',
  'host.decommissioned': 'Host decommissioned',
  'host.reactivated': 'Host reactivated',
  'host.merged': 'Hosts merged',
  'host.deleted': 'Host deleted',
  'finding.opened': 'Finding opened',
  'finding.resolved': 'Finding resolved',
  'finding.regressed': 'Finding regressed',
  'finding.accepted': 'Risk accepted',
  'finding.acceptance_expired': 'Accepted risk expired',
  'digest.ready': 'Digest ready',
  'events.folded': 'Events folded (over the cap)',
  'webhook.test': 'Test event',
};

/** The event types, in the contract's order. */
export const EVENT_TYPES = Object.keys(EVENT_MEANINGS) as WebhookEventType[];

/** What each delivery status means to the operator. */
export const STATUS_MEANINGS: Record<DeliveryStatus, string> = {
  pending: 'to be sent or retried',
  delivered: 'answered 2xx',
  failed: 'gave up after the last attempt',
};

/** The settings of a subscription: those that apply to the events it chose (stale days, regression threshold), and its delivery cap. */
export function settingsOf(webhook: Pick<Webhook, 'events' | 'staleDays' | 'regressionThreshold' | 'maxDeliveriesPerMinute'>): string[] {
  const settings: string[] = [];
  if (webhook.events.includes('host.stale')) settings.push(`stale after ${webhook.staleDays} days`);
  if (webhook.events.includes('host.regressed')) settings.push(`regressed by ${webhook.regressionThreshold} points`);
  settings.push(`at most ${webhook.maxDeliveriesPerMinute} deliveries a minute`);
  return settings;
}
