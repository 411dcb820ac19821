// What `audit-server hosts list` and `hosts show` print: the admin API's host page and host detail as text for
// operators. Host names, groups and tags come from reports: hostile text, shown with control characters replaced.
import type { Host, HostDetail, HostPage } from '../generated/types.gen.js';
import { isRecordId } from '../database/entities.js';
import { DomainError } from '../errors/domain-error.js';
import type { HostQuery } from './host-queries.js';

/** The flags of `hosts list`, as commander hands them over. */
export interface HostListFlags {
  hostname?: string;
  group?: string;
  tag?: string;
  os?: string;
  key?: string;
  compliance?: string;
  failingPolicy?: string;
  failingRule?: string;
  sort?: string;
  order?: string;
  limit?: string;
  offset?: string;
}

/** The values the choice flags of `hosts list` take, as the admin API names them. */
const COMPLIANCE_STATES = ['compliant', 'noncompliant', 'waived', 'unknown'] as const;
const SORTS = ['lastSeen', 'hostname', 'hardeningIndex', 'warnings', 'compliance'] as const;
const ORDERS = ['desc', 'asc'] as const;
/** The contract's `RuleId`. */
const RULE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The most hosts one page may hold, as the admin API allows. */
const MAX_LIMIT = 500;

/** The headings of `hosts list`, the columns `audit-client hosts` shows. */
export const HOST_LIST_HEADER = ['ID', 'HOSTNAME', 'HOST ID', 'OS', 'INDEX', 'WARNINGS', 'REPORTS', 'LAST SEEN', 'GROUPS', 'TAGS'];

/** A report's text as a terminal shows it: control characters (terminal escapes) become `?`, nothing becomes `-`. */
export function printable(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'); // eslint-disable-line no-control-regex -- control characters are what it replaces
}

/**
 * The host query the flags of `hosts list` ask for: filters as the admin API's, 50 hosts unless `--limit` says;
 * each flag checked as the API would, with a message naming it (a license key given for `--key` is not repeated).
 */
export function hostListQuery(flags: HostListFlags): HostQuery {
  const limit = wholeNumber(flags.limit ?? '50', '--limit');
  if (limit < 1 || limit > MAX_LIMIT) throw new DomainError('invalid', `--limit must be from 1 to ${MAX_LIMIT}`);
  const offset = wholeNumber(flags.offset ?? '0', '--offset');
  const { hostname, group, tag, os, key, failingPolicy, failingRule } = flags;
  if (key !== undefined && !isRecordId(key))
    throw new DomainError('invalid', "--key must be a license key's id (the ID column of keys list, a UUID), never the key itself");
  if (failingPolicy !== undefined && !isRecordId(failingPolicy))
    throw new DomainError('invalid', "--failing-policy must be a policy's id (the ID column of policies list, a UUID)");
  if (failingRule !== undefined && !RULE_ID_PATTERN.test(failingRule)) {
    throw new DomainError('invalid', '--failing-rule must be a rule id: lowercase letters, digits and "-", e.g. hardening-index');
  }
  const query = {
    hostname,
    group,
    tag,
    os,
    keyId: key,
    compliance: oneOf(flags.compliance, COMPLIANCE_STATES, '--compliance'),
    failingPolicy,
    failingRule,
    sort: oneOf(flags.sort, SORTS, '--sort'),
    order: oneOf(flags.order, ORDERS, '--order'),
  };
  return { ...(Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<HostQuery>), limit, offset };
}

/** A choice flag's value, refused with the choices when it is none of them. */
function oneOf<Choice extends string>(value: string | undefined, choices: readonly Choice[], flag: string): Choice | undefined {
  if (value === undefined || (choices as readonly string[]).includes(value)) return value as Choice | undefined;
  throw new DomainError('invalid', `${flag} must be one of ${choices.join(', ')}`);
}

/** The `--history` of `hosts show`: how many of the newest reports, 1 to 500. */
export function historyLimit(value: string): number {
  const limit = wholeNumber(value, '--history');
  if (limit < 1 || limit > MAX_LIMIT) throw new DomainError('invalid', `--history must be from 1 to ${MAX_LIMIT}`);
  return limit;
}

function wholeNumber(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new DomainError('invalid', `${flag} must be a whole number`);
  return Number(value);
}

/** Refuses, before any query, an id that cannot be a host's (PostgreSQL would refuse it as a uuid anyway). */
export function checkHostId(id: string): string {
  if (!isRecordId(id)) throw new DomainError('invalid', `${id} is not a host id: give the ID column of hosts list (a UUID)`);
  return id;
}

/** One row of `hosts list` per host. */
export function hostListRows(hosts: Host[]): string[][] {
  return hosts.map((h) =>
    [h.id, h.hostname, h.hostId, h.os, h.latestHardeningIndex, h.latestWarningCount, h.reportCount, h.lastSeen, h.groups.join(','), h.tags.join(',')].map(
      printable,
    ),
  );
}

/** The line under `hosts list`: which hosts of how many, and how to get the next page. */
export function hostPageLine(page: HostPage): string {
  if (page.items.length === 0) return page.total === 0 ? 'No hosts.\n' : `No hosts at offset ${page.offset} (${page.total} in all).\n`;
  const last = page.offset + page.items.length;
  return `hosts ${page.offset + 1}-${last} of ${page.total}${last < page.total ? `; next page: --offset ${last}` : ''}\n`;
}

/** `hosts show`: the host's fields, one per line, then the hardening index of its newest reports. */
export function describeHost(host: HostDetail): string {
  const change = host.identityChange;
  const fields: Array<[string, string | number | null]> = [
    ['Host', host.id],
    ['Hostname', host.hostname],
    ['Host ID', host.hostId],
    ['Host ID 2', host.hostId2],
    ['Groups', host.groups.join(',')],
    ['Tags', host.tags.join(',')],
    ['License key ID', host.keyId],
    ['OS', host.os],
    ['Lynis', host.lynisVersion],
    ['First seen', host.firstSeen],
    ['Last seen', host.lastSeen],
    ['Reports', host.reportCount],
    ['Latest report', host.latestReportId],
    ['Hardening index', host.latestHardeningIndex],
    ['Warnings', host.latestWarningCount],
    ['Suggestions', host.latestSuggestionCount],
    [
      'Identity change',
      change ? `hostid2 ${change.previousHostId2 ?? '(none)'} -> ${change.hostId2 ?? '(none)'} at ${change.at}${change.refused ? ', refused' : ''}` : null,
    ],
  ];
  const width = Math.max(...fields.map(([label]) => label.length));
  const text = fields.map(([label, value]) => `${label.padEnd(width)}  ${printable(value)}\n`).join('');
  if (host.hardeningHistory.length === 0) return text;
  const history = host.hardeningHistory.map((point) => `  ${point.receivedAt}  ${printable(point.hardeningIndex).padStart(5)}  ${point.reportId}\n`);
  return `${text}\nHardening index, newest first:\n${history.join('')}`;
}
