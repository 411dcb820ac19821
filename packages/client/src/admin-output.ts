// How the admin commands show the admin API's answers to people: aligned tables and labelled fields.
import type {
  Facets,
  Finding,
  FindingCount,
  FindingGroupPage,
  Host,
  HostDetail,
  HostPage,
  LabelCount,
  LicenseKeyInfo,
  Overview,
  RejectionPage,
  ReportDetail,
  ReportDiff,
  ReportPage,
} from './generated/types.gen.js';

/** Columns of a table: a heading and how to read the cell from one row. */
type Columns<Row> = Array<[heading: string, cell: (row: Row) => string | number | null]>;

/**
 * Text a terminal shows as it is: control characters (a report's host name could carry terminal escapes) become
 * `?`, and a missing value becomes `-`.
 */
export function printable(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'); // eslint-disable-line no-control-regex -- control characters are what it replaces
}

/** An API time (`2026-11-22T13:41:25.000Z`) as `2026-11-22 13:41:25 UTC`; anything unreadable as it is. */
export function formatTime(value: string | null): string {
  if (value === null) return '-';
  const time = Date.parse(value);
  return Number.isNaN(time)
    ? printable(value)
    : new Date(time)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

/** Rows under their headings, each column as wide as its widest cell, two spaces apart. */
export function formatTable<Row>(columns: Columns<Row>, rows: Row[]): string {
  const cells = [columns.map(([heading]) => heading), ...rows.map((row) => columns.map(([, cell]) => printable(cell(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return (
    cells
      .map((line) =>
        line
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Labelled values, one per line, the values aligned. */
export function formatFields(fields: Array<[label: string, value: string | number | null]>): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${printable(value)}`).join('\n') + '\n';
}

/** Which items of how many a page holds, and how to get the next page. */
export function formatPageLine(page: { total: number; limit: number; offset: number; items: unknown[] }, noun: string): string {
  if (page.items.length === 0) return page.total === 0 ? `No ${noun}.\n` : `No ${noun} at offset ${page.offset} (${page.total} in all).\n`;
  const last = page.offset + page.items.length;
  const more = last < page.total ? `; next page: --offset ${last}` : '';
  return `${noun} ${page.offset + 1}-${last} of ${page.total}${more}\n`;
}

/** Labels (a host's groups or tags) as one cell: comma-separated, as the Lynis profile writes them. */
const labels = (values: string[]) => values.join(',');

const hostColumns: Columns<Host> = [
  ['ID', (h) => h.id],
  ['HOSTNAME', (h) => h.hostname],
  ['HOST ID', (h) => h.hostId],
  ['OS', (h) => h.os],
  ['INDEX', (h) => h.latestHardeningIndex],
  ['WARNINGS', (h) => h.latestWarningCount],
  ['REPORTS', (h) => h.reportCount],
  ['LAST SEEN', (h) => formatTime(h.lastSeen)],
  ['STATE', (h) => h.state],
  ['GROUPS', (h) => labels(h.groups)],
  ['TAGS', (h) => labels(h.tags)],
  ['IDENTITY', (h) => (h.identityChange ? (h.identityChange.refused ? 'changed, refused' : 'changed') : null)],
];

/** `audit-client hosts`. */
export const formatHostPage = (page: HostPage) => (page.items.length > 0 ? formatTable(hostColumns, page.items) : '') + formatPageLine(page, 'hosts');

/** `audit-client host <id>`: the host, then the hardening index of its newest reports. */
export function formatHost(host: HostDetail): string {
  const fields = formatFields([
    ['Host', host.id],
    ['Hostname', host.hostname],
    ['Host ID', host.hostId],
    ['Host ID 2', host.hostId2],
    ['Alias', host.hostnameAlias],
    ['Customer', host.customerName],
    ['Groups', labels(host.groups)],
    ['Tags', labels(host.tags)],
    ['License key ID', host.keyId],
    ['OS', host.os],
    ['Lynis', host.lynisVersion],
    ['First seen', formatTime(host.firstSeen)],
    ['Last seen', formatTime(host.lastSeen)],
    ['State', hostStateText(host)],
    ['Machine ID', host.machineId],
    ['Auto-purge', host.autoPurge ? 'yes: decommissioned soon after its reports stop' : null],
    ['Reports', host.reportCount],
    ['Latest report', host.latestReportId],
    ['Hardening index', host.latestHardeningIndex],
    ['Warnings', host.latestWarningCount],
    ['Suggestions', host.latestSuggestionCount],
    ['Identity change', identityChangeText(host.identityChange)],
  ]);
  if (host.hardeningHistory.length === 0) return fields;
  const history = formatTable<HostDetail['hardeningHistory'][number]>(
    [
      ['RECEIVED', (p) => formatTime(p.receivedAt)],
      ['INDEX', (p) => p.hardeningIndex],
      ['REPORT', (p) => p.reportId],
    ],
    host.hardeningHistory,
  );
  return `${fields}\nHardening index, newest first:\n${history}`;
}

/** Why a host is in its state, in words. */
const STATE_REASONS: Record<Host['stateReason'], string> = {
  reporting: 'reporting',
  'no-report': 'no report for longer than the stale threshold',
  operator: 'by an operator',
  'group-expiry': "no report within its group's expiry time",
  'auto-purge': 'allow-auto-purge host that stopped reporting',
};

/** A host's lifecycle state, since when and why: `decommissioned since 2026-11-20 08:00:00 UTC (by an operator)`. */
export const hostStateText = (host: Pick<Host, 'state' | 'stateSince' | 'stateReason'>): string =>
  `${host.state} since ${formatTime(host.stateSince)} (${STATE_REASONS[host.stateReason]})`;

/** A host's unaccepted `hostid2` change in one line: old → new, when, and whether its reports are refused. */
function identityChangeText(change: Host['identityChange']): string | null {
  if (!change) return null;
  const refused = change.refused ? ', reports refused until accepted (audit-client accept-identity)' : ' (audit-client accept-identity)';
  return `hostid2 ${change.previousHostId2 ?? '(none)'} → ${change.hostId2 ?? '(none)'} at ${formatTime(change.at)}${refused}`;
}

const reportColumns: Columns<ReportPage['items'][number]> = [
  ['ID', (r) => r.id],
  ['RECEIVED', (r) => formatTime(r.receivedAt)],
  ['HOSTNAME', (r) => r.hostname],
  ['INDEX', (r) => r.hardeningIndex],
  ['WARNINGS', (r) => r.warningCount],
  ['SUGGESTIONS', (r) => r.suggestionCount],
  ['BYTES', (r) => r.size],
];

/** `audit-client reports`. */
export const formatReportPage = (page: ReportPage) => (page.items.length > 0 ? formatTable(reportColumns, page.items) : '') + formatPageLine(page, 'reports');

/** `audit-client report <id>`: the metadata, then what the Lynis report says, with every warning and suggestion. */
export function formatReport(report: ReportDetail): string {
  const { summary } = report;
  const meta: Array<[string, string | number | null]> = [
    ['Report', report.id],
    ['Received', formatTime(report.receivedAt)],
    ['Host', report.hostRecordId],
    ['Hostname', report.hostname],
    ['Host ID', report.hostId],
    ['Host ID 2', report.hostId2],
    ['License key ID', report.keyId],
    ['Encoding', report.encoding],
    ['Bytes', report.size],
    ['SHA-256', report.sha256],
  ];
  if (!summary) return `${formatFields(meta)}\nNot a Lynis report: no summary.\n`;
  const os = [summary.os.fullName ?? summary.os.name, summary.os.kernel && `kernel ${summary.os.kernel}`].filter(Boolean).join(', ');
  const fields = formatFields([
    ...meta,
    ['Lynis', summary.lynisVersion],
    ['Report format', summary.reportVersion],
    ['OS', os || null],
    // Lynis writes these in the audited host's local time, without a zone.
    ['Audit started', summary.startedAt && `${summary.startedAt} (host's local time)`],
    ['Audit ended', summary.endedAt && `${summary.endedAt} (host's local time)`],
    ['Hardening index', summary.hardeningIndex],
    ['Tests performed', summary.testsPerformed],
  ]);
  return `${fields}\n${formatFindings('Warnings', summary.warnings)}\n${formatFindings('Suggestions', summary.suggestions)}`;
}

function formatFindings(title: string, findings: Finding[]): string {
  if (findings.length === 0) return `${title}: none\n`;
  const width = Math.max(...findings.map((f) => printable(f.testId).length));
  const lines = findings.flatMap((f) => [
    `  ${printable(f.testId).padEnd(width)}  ${printable(f.text)}`,
    ...(f.details === null ? [] : [`  ${''.padEnd(width)}  details: ${printable(f.details)}`]),
    ...(f.solution === null ? [] : [`  ${''.padEnd(width)}  solution: ${printable(f.solution)}`]),
  ]);
  return `${title} (${findings.length}):\n${lines.join('\n')}\n`;
}

/** `audit-client diff <id>`: the two reports, then every change, one line each (`+` added, `-` removed or resolved, `~` changed). */
export function formatReportDiff(diff: ReportDiff): string {
  const head = formatFields([
    ['Before', diff.beforeReportId],
    ['After', diff.afterReportId],
  ]);
  const { changes } = diff;
  if (!changes) return `${head}\n${diff.beforeReportId ? 'Not both Lynis reports: nothing to compare.' : 'The host sent no report before this one.'}\n`;
  const { before, after } = changes.hardeningIndex;
  const lines = [
    ...(before !== after ? [`~ hardening index ${printable(before)} -> ${printable(after)}`] : []),
    ...changes.warnings.added.map((f) => `+ warning ${printable(f.testId)}: ${printable(f.text)}`),
    ...changes.warnings.resolved.map((f) => `- warning ${printable(f.testId)}: ${printable(f.text)}`),
    ...changes.suggestions.added.map((f) => `+ suggestion ${printable(f.testId)}: ${printable(f.text)}`),
    ...changes.suggestions.resolved.map((f) => `- suggestion ${printable(f.testId)}: ${printable(f.text)}`),
    ...changes.vulnerablePackages.added.map((name) => `+ vulnerable package ${printable(name)}`),
    ...changes.vulnerablePackages.resolved.map((name) => `- vulnerable package ${printable(name)}`),
    ...changes.packages.added.map((p) => `+ package ${printable(p.name)} ${printable(p.version)}`),
    ...changes.packages.removed.map((p) => `- package ${printable(p.name)} ${printable(p.version)}`),
    ...changes.packages.changed.map((p) => `~ package ${printable(p.name)} ${printable(p.before)} -> ${printable(p.after)}`),
    ...changes.values.added.map((v) => `+ ${printable(v.key)}=${printable(v.value)}`),
    ...changes.values.removed.map((v) => `- ${printable(v.key)}=${printable(v.value)}`),
    ...changes.values.changed.map((v) => `~ ${printable(v.key)}: ${printable(v.before)} -> ${printable(v.after)}`),
  ];
  return `${head}\n${lines.length > 0 ? `${lines.join('\n')}\n` : 'No changes.\n'}`;
}

const keyColumns: Columns<LicenseKeyInfo> = [
  ['ID', (k) => k.id],
  ['PREFIX', (k) => k.prefix],
  ['STATE', (k) => k.state],
  ['LABEL', (k) => k.label],
  ['CREATED', (k) => formatTime(k.createdAt)],
  ['EXPIRES', (k) => formatTime(k.expiresAt)],
  ['LAST USED', (k) => formatTime(k.lastUsedAt)],
  ['LAST UPLOAD', (k) => formatTime(k.lastUploadAt)],
  ['NEW HOSTS/DAY', (k) => k.newHostsPerDay ?? 'default'],
  ['MAX HOSTS', (k) => k.maxHosts ?? 'none'],
];

/** `audit-client keys list` and the key a `keys revoke` answers with. */
export const formatKeys = (keys: LicenseKeyInfo[]) => (keys.length > 0 ? formatTable(keyColumns, keys) : 'No license keys.\n');

/** What `keys create` says on stderr about the key whose secret it prints on stdout. */
export const describeNewKey = (key: LicenseKeyInfo) =>
  `Created license key ${key.id} (prefix ${printable(key.prefix)}, label ${printable(key.label)}, expires ${formatTime(key.expiresAt)}).`;

const rejectionColumns: Columns<RejectionPage['items'][number]> = [
  ['DAY', (r) => r.day],
  ['OPERATION', (r) => (r.operation === 'uploadReport' ? 'upload' : 'license')],
  ['REASON', (r) => r.reason],
  ['HOST ID', (r) => (r.folded ? '(other hosts)' : r.hostId)],
  ['KEY ID', (r) => r.keyId ?? 'unknown'],
  ['COUNT', (r) => r.count],
  ['LAST REFUSED', (r) => formatTime(r.lastAt)],
  [
    'ADDRESSES',
    (r) => r.remoteAddresses.join(' ') + (r.addressCount > r.remoteAddresses.length ? ` (+${r.addressCount - r.remoteAddresses.length})` : '') || null,
  ],
];

/** `audit-client rejections`: refused uploads and license checks, newest day first. */
export const formatRejectionPage = (page: RejectionPage) =>
  (page.items.length > 0 ? formatTable(rejectionColumns, page.items) : '') + formatPageLine(page, 'refusals');

const findingColumns: Columns<FindingCount> = [
  ['KIND', (f) => f.kind],
  ['TEST ID', (f) => f.testId],
  ['HOSTS', (f) => f.hosts],
  ['TEXT', (f) => f.text],
];

/** `audit-client findings`: warnings and suggestions across the fleet, most hosts affected first. */
export const formatFindingPage = (page: FindingGroupPage) =>
  (page.items.length > 0 ? formatTable(findingColumns, page.items) : '') + formatPageLine(page, 'findings');

/** How many of the newest days with reports `overview` lists of the fleet's hardening trend (`--json` has all 90). */
export const OVERVIEW_TREND_DAYS = 14;

/** A number as people read it: at most one decimal. */
const decimal = (value: number | null) => (value === null ? null : String(Math.round(value * 10) / 10));

/** `n thing` or `n things`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * `audit-client overview`: the fleet at a glance, section by section: hosts and how recently they reported, the
 * hardening index (with its distribution as a bar per bucket), the most common findings, the OS and Lynis mix,
 * uploads accepted and refused per day, the fleet's hardening index per day, and the stale hosts seen longest ago.
 */
export function formatOverview(overview: Overview): string {
  const { hosts, staleDays } = overview;
  const findingColumns: Columns<FindingCount> = [
    ['HOSTS', (f) => f.hosts],
    ['TEST ID', (f) => f.testId],
    ['TEXT', (f) => f.text],
  ];
  const mixColumns = (heading: string): Columns<LabelCount> => [
    ['HOSTS', (l) => l.hosts],
    [heading, (l) => l.name ?? '(not reported)'],
  ];
  const sections = [
    formatOverviewHead(overview),
    `Hardening index of the hosts' latest reports:\n${indent(formatDistribution(overview.hardeningIndex.distribution))}`,
    formatSection('Top warnings (hosts affected)', findingColumns, overview.topWarnings),
    formatSection('Top suggestions (hosts affected)', findingColumns, overview.topSuggestions),
    formatSection('Operating systems', mixColumns('OPERATING SYSTEM'), overview.operatingSystems),
    formatSection('Lynis versions', mixColumns('LYNIS'), overview.lynisVersions),
    formatUploadsPerDay(overview.uploadsPerDay),
    formatHardeningTrend(overview.hardeningTrend.slice(-OVERVIEW_TREND_DAYS)),
    formatSection(`Stale hosts (no report for ${count(staleDays, 'day')}), seen longest ago`, staleHostColumns, overview.staleHosts) +
      (overview.staleHosts.length > 0 && hosts.stale > overview.staleHosts.length
        ? `  ${hosts.stale - overview.staleHosts.length} more: audit-client hosts --state stale\n`
        : ''),
  ];
  return sections.join('\n');
}

/** A titled section of the overview: its rows as a table, two spaces in, or `none`. */
function formatSection<Row>(title: string, columns: Columns<Row>, rows: Row[]): string {
  return `${title}:\n` + (rows.length === 0 ? '  none\n' : indent(formatTable(columns, rows)));
}

/** The overview's first lines: when, how many hosts and how recently seen, and the hardening index's average. */
function formatOverviewHead({ asOf, generatedAt, hosts, hardeningIndex: index, staleDays }: Overview): string {
  const without = index.unknown > 0 ? ` (${count(index.unknown, 'host')} without one)` : '';
  return formatFields([
    ...(asOf ? [['As of', `${formatTime(asOf)} (a past moment; host states are kept now only)`] as [string, string]] : []),
    ['Generated', formatTime(generatedAt)],
    [
      'Hosts',
      `${hosts.total}: ${hosts.seenLast24h} seen in the last 24 h, ${hosts.seenLast7d} in the last 7 days, ${hosts.stale} stale (no report for ${count(staleDays, 'day')})` +
        (hosts.decommissioned > 0 ? `; ${hosts.decommissioned} decommissioned, not counted` : ''),
    ],
    ['Hardening index', index.average === null ? `none known${without}` : `average ${decimal(index.average)}, median ${decimal(index.median)}${without}`],
  ]);
}

/** The hardening index's distribution, a bar per bucket, the fullest bucket 40 characters wide. */
function formatDistribution(distribution: Overview['hardeningIndex']['distribution']): string {
  const widest = Math.max(1, ...distribution.map((bucket) => bucket.hosts));
  return formatTable<Overview['hardeningIndex']['distribution'][number]>(
    [
      ['INDEX', (b) => `${b.from}-${b.to}`],
      ['HOSTS', (b) => String(b.hosts)],
      ['', (b) => '#'.repeat(Math.ceil((b.hosts / widest) * 40)) || ' '],
    ],
    distribution,
  );
}

/** Uploads accepted and refused on the days with any, and where to read the refusals. */
function formatUploadsPerDay(days: Overview['uploadsPerDay']): string {
  const refused = days.reduce((sum, day) => sum + day.refused, 0);
  const columns: Columns<Overview['uploadsPerDay'][number]> = [
    ['DAY', (d) => d.day],
    ['ACCEPTED', (d) => String(d.accepted)],
    ['REFUSED', (d) => String(d.refused)],
  ];
  return (
    formatSection(
      `Uploads per day, last ${count(days.length, 'day')} (days with any)`,
      columns,
      days.filter((day) => day.accepted > 0 || day.refused > 0),
    ) + (refused > 0 ? `  ${count(refused, 'upload')} refused: see audit-client rejections\n` : '')
  );
}

/** The fleet's hardening index on the newest days with reports. */
function formatHardeningTrend(trend: Overview['hardeningTrend']): string {
  const columns: Columns<Overview['hardeningTrend'][number]> = [
    ['DAY', (d) => d.day],
    ['AVERAGE', (d) => decimal(d.average)],
    ['REPORTS', (d) => String(d.reports)],
  ];
  return formatSection(`Fleet hardening index per day (newest ${count(trend.length, 'day')} with reports)`, columns, trend);
}

const staleHostColumns: Columns<Host> = [
  ['ID', (h) => h.id],
  ['HOSTNAME', (h) => h.hostname],
  ['LAST SEEN', (h) => formatTime(h.lastSeen)],
];

/** Every line of `text` two spaces in. */
const indent = (text: string) => text.replace(/^(?=.)/gm, '  ');

/**
 * `facets`: each field's values with their label (a key's) and host count, most hosts first, one table; `field` when
 * only that one was asked for (the others come back empty).
 */
export function formatFacets(facets: Facets, field?: keyof Facets): string {
  const fields = field ? [field] : (Object.keys(facets) as (keyof Facets)[]);
  const rows = fields.flatMap((name) => facets[name].map((facet) => ({ field: name, ...facet })));
  if (rows.length === 0) return 'No values.\n';
  return formatTable(
    [
      ['FIELD', (row) => row.field],
      ['VALUE', (row) => row.value],
      ['LABEL', (row) => row.label],
      ['HOSTS', (row) => row.hosts],
    ],
    rows,
  );
}
