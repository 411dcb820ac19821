import type { TrackedFinding } from '@org/audit-client/sdk';
import { FINDING_STATE_TEXT, findingStateLine } from '../finding-lifecycle.js';
import { formatTime, formatUtc } from '../format.js';
import { hostsRoute, hrefOf } from '../route.js';
import type { Column } from './Table.js';
import { When } from './When.js';

/** A finding's state as a badge that always says it in words (its colour only repeats them); since when on hover. */
export function FindingStateBadge({ finding }: { finding: Pick<TrackedFinding, 'state' | 'stateSince' | 'regressions'> }) {
  return (
    <span className={`badge badge-finding-${finding.state}`} title={findingStateLine(finding)}>
      {FINDING_STATE_TEXT[finding.state]}
    </span>
  );
}

/** The day of a time (a due day, an expiry, both picked as days) in the browser's time zone; the exact time on hover. */
function Day({ time }: { time: string }) {
  return (
    <time dateTime={formatUtc(time)} title={formatTime(time)}>
      {formatTime(time).split(' ')[0]}
    </time>
  );
}

/** A finding's state: its badge, since when, and for an accepted risk why, who approved it and until when. */
function StateCell({ finding }: { finding: TrackedFinding }) {
  const { acceptance } = finding;
  return (
    <>
      <FindingStateBadge finding={finding} />
      {finding.regressions > 0 && <span className="muted"> (back {finding.regressions === 1 ? 'once' : `${finding.regressions} times`})</span>}
      {acceptance && (
        <dl className="acceptance">
          <dt>Reason</dt>
          <dd>{acceptance.reason}</dd>
          <dt>Approved by</dt>
          <dd>{acceptance.approverEmail ?? acceptance.approverUserId}</dd>
          <dt>Until</dt>
          <dd>
            <Day time={acceptance.expiresAt} />
          </dd>
        </dl>
      )}
    </>
  );
}

/** Who owns a finding and by when, or that no one does yet. */
function OwnerCell({ finding }: { finding: TrackedFinding }) {
  if (!finding.ownerUserId && !finding.ownerEmail) return <span className="muted">No one</span>;
  return (
    <>
      <span className="words">{finding.ownerEmail ?? finding.ownerUserId}</span>
      {finding.dueAt && (
        <span className="due">
          due <Day time={finding.dueAt} />
        </span>
      )}
    </>
  );
}

/**
 * The columns of a tracked finding, shared by a host's findings and the fleet's: test id (linking to the hosts that
 * have it), kind, the host's text (as text only), state, owner and due date, first seen, when resolved.
 */
export const TRACKED_COLUMNS: Record<'test' | 'kind' | 'text' | 'state' | 'owner' | 'firstSeen' | 'resolvedAt', Column<TrackedFinding>> = {
  test: {
    header: 'Test',
    cellClassName: 'mono nowrap',
    cell: (finding) => (
      <a href={hrefOf(hostsRoute({ finding: finding.testId, findingKind: finding.kind }))} title="Every host with this finding">
        {finding.testId}
      </a>
    ),
  },
  kind: {
    header: 'Kind',
    cellClassName: 'nowrap',
    cell: (finding) => <span className={`kind kind-${finding.kind}`}>{finding.kind === 'warning' ? 'Warning' : 'Suggestion'}</span>,
  },
  text: { header: 'Finding', cellClassName: 'words', cell: (finding) => finding.text },
  state: { header: 'State', cellClassName: 'finding-state', cell: (finding) => <StateCell finding={finding} /> },
  owner: { header: 'Owner', cellClassName: 'finding-owner', cell: (finding) => <OwnerCell finding={finding} /> },
  firstSeen: { header: 'First seen', cell: (finding) => <When time={finding.firstSeen} /> },
  resolvedAt: { header: 'Resolved', cell: (finding) => <When time={finding.resolvedAt} /> },
};
