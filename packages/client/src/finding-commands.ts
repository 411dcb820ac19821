// The `findings` commands: the fleet's findings grouped by test id (`findings list`), and each host's findings with
// their lifecycle: listed across the fleet (`findings tracked`) or for one host (`hosts findings`), acknowledged,
// accepted as a risk, or reopened.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { FindingState, FindingUpdate, TrackedFinding, TrackedFindingList, TrackedFindingPage } from './generated/types.gen.js';
import { admin, adminCommand, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatFindingPage, formatPageLine, formatTable, formatTime } from './admin-output.js';
import { dateTime, recordId, wholeNumber } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';

/** The contract's `FindingState`, in the order a finding lives through them. */
const FINDING_STATES: readonly FindingState[] = ['open', 'acknowledged', 'accepted', 'resolved', 'regressed'];
export const KINDS = ['warning', 'suggestion'] as const;
/** The contract's bound of `minAgeDays`. */
const MAX_AGE_DAYS = 3650;

/** Parses `--state open,regressed`: states of the contract, comma-separated. */
export const findingStates = (value: string): FindingState[] =>
  value.split(',').map((part) => {
    const state = FINDING_STATES.find((known) => known === part.trim());
    if (!state) throw new InvalidArgumentError(`must be states separated by commas, of ${FINDING_STATES.join(', ')}`);
    return state;
  });

/** Parses `--owner`: `me` (the signed-in person) or a person's id. */
export const ownerFilter = (value: string): string => (value === 'me' ? value : recordId(value));

/** Parses `--min-age-days`: a whole number of days within the contract's bound. */
const ageDays = (value: string): number => {
  const days = wholeNumber(value);
  if (days > MAX_AGE_DAYS) throw new InvalidArgumentError(`must be at most ${MAX_AGE_DAYS}`);
  return days;
};

/** `--state open,regressed`, as the findings lists and their export take it. */
export const stateOption = () =>
  new Option('--state <states>', `only findings in these states, comma-separated (${FINDING_STATES.join(', ')})`).argParser(findingStates);
const findingArgument = () => new Argument('<id>', "the finding's id (the ID column of `findings tracked` or `hosts findings`)").argParser(recordId);

interface FindingsFlags extends OutputFlags {
  kind?: 'warning' | 'suggestion';
  testId?: string;
  limit?: number;
  offset?: number;
}

interface TrackedFlags extends FindingsFlags {
  state?: FindingState[];
  owner?: string;
  group?: string;
  minAgeDays?: number;
}

/**
 * Adds `findings` (`list`, its default, as `findings` alone listed before it had subcommands; `tracked`,
 * `acknowledge`, `accept` and `reopen`) to the program, and `findings` under `hosts`; returns `findings`.
 */
export function addFindingCommands(program: Command, hosts: Command): Command {
  const findings = program
    .command('findings')
    .description("list findings (`findings list`, the default), or track each host's findings: who owns them, which risks are accepted");
  adminCommand(findings, 'list', "list the warnings and suggestions of every host's latest report, most hosts affected first", { isDefault: true })
    .addOption(new Option('--kind <kind>', 'only warnings or only suggestions').choices(KINDS))
    .option('--test-id <id>', 'only this test id, e.g. PKGS-7392 (then `hosts --finding ID` lists its hosts)')
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[FindingsFlags]>(async (client, { kind, testId, limit, offset, ...options }) =>
        show(options, await client.listFindings({ kind, testId, limit, offset }), formatFindingPage),
      ),
    );
  adminCommand(findings, 'tracked', "list each host's findings with their state and owner, oldest first; filters combine")
    .addOption(stateOption())
    .addOption(new Option('--owner <id>', 'only findings this person owns: their id, or "me"').argParser(ownerFilter))
    .option('--group <name>', 'only hosts whose latest report names this group (system-groups=; any case)')
    .addOption(new Option('--kind <kind>', 'only warnings or only suggestions').choices(KINDS))
    .option('--test-id <id>', 'only this test id, e.g. SSH-7408')
    .addOption(new Option('--min-age-days <n>', 'only findings first seen at least this many days ago').argParser(ageDays))
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(admin<[TrackedFlags]>(async (client, { json, ...query }) => show({ json }, await client.listTrackedFindings(query), formatTrackedFindingPage)));
  addFindingChangeCommands(findings);
  adminCommand(hosts, 'findings', "list a host's findings with their state and owner: open and regressed first")
    .addArgument(new Argument('<id>', "the host's id (the ID column of `hosts list`)").argParser(recordId))
    .addOption(stateOption())
    .action(
      admin<[string, OutputFlags & { state?: FindingState[] }]>(async (client, id, { json, state }) =>
        show({ json }, await client.listHostFindings(id, { state }), formatHostFindings),
      ),
    );
  return findings;
}

/** `findings acknowledge`, `accept` and `reopen`: each prints the finding as changed. */
function addFindingChangeCommands(findings: Command): void {
  const change = <Flags>(update: (options: Flags) => FindingUpdate) =>
    admin<[string, OutputFlags & Flags]>(async (client, id, options) => show(options, await client.updateFinding(id, update(options)), formatTrackedFinding));
  adminCommand(findings, 'acknowledge', 'take a finding on: you own it (or --owner does), optionally by a due date; also reassigns one')
    .addArgument(findingArgument())
    .addOption(new Option('--owner <id>', "who owns it: a person's id, from `people` (default: you)").argParser(recordId))
    .addOption(new Option('--due <date>', 'when it should be handled: a date (midnight UTC) or an ISO 8601 date and time').argParser(dateTime))
    .action(change(acknowledgement));
  adminCommand(findings, 'accept', 'accept the risk of a finding until a date, approved by another person; it reopens by itself when that passes')
    .addArgument(findingArgument())
    .requiredOption('--reason <text>', 'why the risk is accepted, for the auditors')
    .addOption(new Option('--expires <date>', 'until when: a date (midnight UTC) or an ISO 8601 date and time').argParser(dateTime).makeOptionMandatory())
    .addOption(new Option('--approver <id>', "who approves it: a person's id (`people` lists them)").argParser(recordId).makeOptionMandatory())
    .action(change(acceptance));
  adminCommand(findings, 'reopen', 'reopen an acknowledged or accepted finding')
    .addArgument(findingArgument())
    .action(change(() => ({ state: 'open' })));
}

/** The update that acknowledges a finding: the owner and due date only when given (the server's default owner is whoever asks). */
export function acknowledgement({ owner, due }: { owner?: string; due?: string }): FindingUpdate {
  return { state: 'acknowledged', ...(owner ? { ownerUserId: owner } : {}), ...(due ? { dueAt: due } : {}) };
}

/** The update that accepts a finding's risk; a blank reason is refused before anything is sent. */
export function acceptance({ reason, expires, approver }: { reason: string; expires: string; approver: string }): FindingUpdate {
  if (reason.trim() === '') throw new UsageError('give a --reason: why the risk is accepted');
  return { state: 'accepted', reason: reason.trim(), expiresAt: expires, approverUserId: approver };
}

/** A calendar day of an API time, for narrow table cells; `-` for none. */
const dayOf = (value: string | null): string | null => (value === null ? null : value.slice(0, 10));

/** A finding's state, with how often it came back and until when an accepted risk runs. */
export function stateText(finding: Pick<TrackedFinding, 'state' | 'regressions' | 'acceptance'>): string {
  if (finding.state === 'accepted' && finding.acceptance) return `accepted until ${dayOf(finding.acceptance.expiresAt)}`;
  if (finding.state === 'regressed' && finding.regressions > 1) return `regressed (${finding.regressions} times)`;
  return finding.state;
}

/** Who owns a finding: their email, else their id. */
const ownerOf = (finding: TrackedFinding) => finding.ownerEmail ?? finding.ownerUserId;

type Column = [heading: string, cell: (finding: TrackedFinding) => string | number | null];

/** The columns of both lists, the host's own leaving out HOST. */
const columns = ({ withHost }: { withHost: boolean }): Column[] => [
  ['ID', (finding) => finding.id],
  ...(withHost ? [['HOST', (finding: TrackedFinding) => finding.hostname ?? finding.hostRecordId] as Column] : []),
  ['KIND', (finding) => finding.kind],
  ['TEST', (finding) => finding.testId],
  ['STATE', stateText],
  ['OWNER', ownerOf],
  ['DUE', (finding) => dayOf(finding.dueAt)],
  ['FIRST SEEN', (finding) => dayOf(finding.firstSeen)],
  ['FINDING', (finding) => finding.text],
];

/** Findings of several hosts, one row each (with the host column). */
export const formatTrackedFindings = (findings: TrackedFinding[]): string => formatTable(columns({ withHost: true }), findings);

/** `findings tracked`: one row per host and finding, with the page line. */
export const formatTrackedFindingPage = (page: TrackedFindingPage): string =>
  (page.items.length > 0 ? formatTrackedFindings(page.items) : '') + formatPageLine(page, 'findings');

/** `hosts findings`: the host's findings, without the host column. */
export const formatHostFindings = (list: TrackedFindingList): string =>
  list.items.length > 0 ? formatTable(columns({ withHost: false }), list.items) : 'No findings.\n';

/** One finding as changed: its state, owner and due date, and an accepted risk's reason, approver and expiry. */
export function formatTrackedFinding(finding: TrackedFinding): string {
  const { acceptance: accepted } = finding;
  return formatFields([
    ['Finding', finding.id],
    ['Host', finding.hostname ?? finding.hostRecordId],
    ['Test', `${finding.testId} (${finding.kind})`],
    ['Text', finding.text],
    ['State', `${finding.state} since ${formatTime(finding.stateSince)}`],
    ['Owner', ownerOf(finding)],
    ['Due', finding.dueAt && formatTime(finding.dueAt)],
    ...(accepted
      ? ([
          ['Accepted because', accepted.reason],
          ['Asked by', accepted.requestedBy],
          ['Approved by', accepted.approverEmail ?? accepted.approverUserId],
          ['Accepted until', formatTime(accepted.expiresAt)],
        ] as Array<[string, string | null]>)
      : []),
    ['First seen', formatTime(finding.firstSeen)],
    ['Last seen', formatTime(finding.lastSeen)],
  ]);
}
