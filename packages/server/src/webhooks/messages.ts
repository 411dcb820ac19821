import type { DeliveryEventType } from '../generated/types.gen.js';
import type { WebhookFormat } from './webhook-records.js';

/** The body of a delivery: the Standard Webhooks envelope (`type`, `timestamp`, `data`), or a Slack message. */
export function deliveryBody(format: WebhookFormat, type: DeliveryEventType, createdAt: Date, data: Record<string, unknown>): string {
  if (format === 'slack') return JSON.stringify({ text: slackText(type, data) });
  return JSON.stringify({ type, timestamp: createdAt.toISOString(), data });
}

/**
 * One line for a chat channel. Host names and texts come from the hosts: Slack's control characters (`<`, `>`,
 * `&`) are escaped, so a host cannot make the message mention a channel or hide a link.
 */
function slackText(type: DeliveryEventType, data: Record<string, unknown>): string {
  const host = escape(textOf(data['hostname'] ?? data['hostId'] ?? 'a host'));
  switch (type) {
    case 'report.stored':
      return `Report stored for ${host}: hardening index ${textOf(data['hardeningIndex'] ?? 'unknown')}`;
    case 'host.regressed': {
      const index = data['hardeningIndex'] as { before: number | null; after: number | null };
      const warnings = (data['newWarnings'] as { testId: string }[]).map((warning) => escape(warning.testId));
      return `${host} regressed: hardening index ${String(index.before)} → ${String(index.after)}${warnings.length ? `, new warnings ${warnings.join(', ')}` : ''}`;
    }
    case 'host.noncompliant':
      return `${host} no longer complies with policy ${escape(String(data['policyName']))} (failing: ${escape((data['failingRules'] as string[]).join(', '))})`;
    case 'host.compliant':
      return `${host} complies with policy ${escape(String(data['policyName']))} again`;
    case 'host.stale':
      return `${host} has sent no report for ${String(data['staleDays'])} days (last ${String(data['lastSeen'])})`;
    case 'uploads.refused':
      return `Uploads under key ${escape(String(data['keyId']))} are being refused (${escape(String(data['reason']))}): ${String(data['count'])} from ${String(data['hostIdCount'])} host ids since ${String(data['firstAt'])}`;
    case 'events.folded': {
      const counts = Object.entries(data['counts'] as Record<string, number>).map(([folded, count]) => `${count} ${folded}`);
      return `${String(data['count'])} events folded (over this subscription's cap of ${String(data['maxDeliveriesPerMinute'])} a minute): ${counts.join(', ')}, from ${String(data['firstAt'])} to ${String(data['lastAt'])}`;
    }
    case 'key.expiring':
      return `License key ${escape(String(data['label'] ?? data['prefix']))} expires at ${String(data['expiresAt'])}`;
    case 'host.identity_changed':
      return `${host} reported another hostid2 (${escape(String(data['previousHostId2']))} → ${escape(String(data['hostId2']))})${data['refused'] ? ', refused until accepted' : ''}`;
    case 'key.quota_reached':
      return `License key ${escape(String(data['keyId']))} reached its quota of hosts on ${String(data['day'])}: uploads from new hosts are refused`;
    case 'webhook.test':
      return `Test event for the webhook ${escape(textOf(data['description'] ?? data['receiver']))}: its receiver is reached`;
    case 'policy.quarantined':
      return `Policy ${escape(String(data['policyName']))} was quarantined (disabled): ${escape(String(data['reason']))}`;
    case 'host.enrolled':
      return `${host} sent its first report`;
    case 'host.decommissioned':
      return `${host} was decommissioned (${escape(String(data['reason']))}, last report ${String(data['lastSeen'])})`;
    case 'host.reactivated':
      return `${host} is back (was ${escape(String(data['previousState']))}; ${data['reason'] === 'operator' ? 'reactivated by an operator' : 'it reported'})`;
    case 'host.merged':
      return `${escape(textOf(data['mergedHostname'] ?? data['mergedHostId']))} was merged into ${host}${data['automatic'] ? ' (same machine, new hostid)' : ''}`;
    case 'host.deleted':
      return `${host} was deleted with all its reports`;
    case 'finding.opened':
    case 'finding.resolved':
    case 'finding.regressed':
    case 'finding.accepted':
    case 'finding.acceptance_expired':
      return `${FINDING_CHANGES[type]} on ${host}: ${escape(String(data['kind']))} ${escape(String(data['testId']))}`;
    case 'digest.ready': {
      const scope = data['scope'] as { group?: string | null; customer?: string | null } | null;
      const of = scope?.group ? `group ${escape(scope.group)}` : scope?.customer ? `customer ${escape(scope.customer)}` : 'the fleet';
      return `The ${escape(String(data['cadence']))} digest of ${of} is ready: ${escape(String(data['link']))}`;
    }
    case 'audit.event': {
      const actor = data['actor'] as { name: string | null } | null;
      return `Audit: ${escape(String(actor?.name ?? 'someone'))} ${escape(String(data['operation']))} (${escape(String(data['outcome']))})`;
    }
  }
}

/** What each finding event says happened. */
const FINDING_CHANGES = {
  'finding.opened': 'New finding',
  'finding.resolved': 'Finding resolved',
  'finding.regressed': 'Finding back',
  'finding.accepted': 'Risk accepted',
  'finding.acceptance_expired': 'Accepted risk expired',
} as const;

/** A value of an event's data (JSON the server wrote: a string or a number here) as text. */
const textOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
