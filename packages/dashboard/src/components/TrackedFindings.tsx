import { useState, type ReactNode } from 'react';
import { listHostFindings, updateFinding, type Client, type Finding, type FindingUpdate, type ReportSummary, type TrackedFinding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { detailsKey, reportedDetails, splitResolved } from '../finding-lifecycle.js';
import { useCan } from '../permissions.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { usePeople } from '../use-people.js';
import { FindingActions, FindingForm, type OpenForm } from './FindingActions.js';
import { TRACKED_COLUMNS } from './FindingState.js';
import { Status } from './Status.js';
import { Table, type Column } from './Table.js';

/**
 * A host's findings with their lifecycle: those to handle first, each with its state, owner and due date, first seen,
 * and an accepted risk's reason, approver and expiry (the text with the newest report's details and solution), with
 * an operator's actions; the resolved ones listed apart, folded. A host with no tracked finding yet (or a server
 * that cannot say) shows `untracked`, the newest report's.
 */
export function TrackedFindings({
  client,
  hostRecordId,
  summary,
  onUnauthorized,
  untracked,
}: {
  client: Client;
  hostRecordId: string;
  /** The newest report's findings, whose details and solution the tracked ones show. */
  summary: ReportSummary | null | undefined;
  onUnauthorized(): void;
  untracked: ReactNode;
}) {
  const [loaded, reload] = useLoad(async () => (await data(listHostFindings({ client, path: { hostRecordId } }))).items, hostRecordId, onUnauthorized);
  const mayChange = useCan('updateFinding');
  const people = usePeople(client);
  const [open, setOpen] = useState<OpenForm>();
  const changed = () => {
    setOpen(undefined);
    reload();
  };
  const { problem, change } = useChange(changed, onUnauthorized);
  if (loaded.state === 'loading') return <Status loaded={loaded} />;
  if (loaded.state === 'failed' || loaded.value.length === 0) return <>{untracked}</>;
  const send = (finding: TrackedFinding) => (update: FindingUpdate) =>
    void change(async () => void (await data(updateFinding({ client, path: { findingId: finding.id }, body: update }))));
  const { test, kind, state, owner, firstSeen, resolvedAt } = TRACKED_COLUMNS;
  const text = textWithDetails(reportedDetails(summary));
  const actions: Column<TrackedFinding> = {
    header: 'Actions',
    cell: (finding) => <FindingActions finding={finding} open={open} onOpen={setOpen} change={send(finding)} />,
  };
  const columns = mayChange ? [test, kind, text, state, owner, firstSeen, actions] : [test, kind, text, state, owner, firstSeen];
  const below = (finding: TrackedFinding) =>
    open?.findingId === finding.id && (
      <FindingForm
        client={client}
        people={people}
        finding={finding}
        form={open.form}
        changed={changed}
        onUnauthorized={onUnauthorized}
        onCancel={() => setOpen(undefined)}
      />
    );
  const { current, resolved } = splitResolved(loaded.value);
  return (
    <>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <Table
        scroll
        className="tracked-findings"
        caption={`${current.length} to handle: open and regressed first`}
        empty={<p>Nothing to handle: every finding of this host is resolved.</p>}
        columns={columns}
        rows={current}
        rowKey={(finding) => finding.id}
        below={below}
      />
      {resolved.length > 0 && (
        <details className="resolved-findings">
          <summary>Resolved ({resolved.length})</summary>
          <Table
            scroll
            className="tracked-findings"
            columns={[test, kind, text, state, firstSeen, resolvedAt]}
            rows={resolved}
            rowKey={(finding) => finding.id}
          />
        </details>
      )}
    </>
  );
}

/** A finding's text with the newest report's details and solution for it, when it has them: all as text only. */
function textWithDetails(details: Map<string, Finding>): Column<TrackedFinding> {
  return {
    ...TRACKED_COLUMNS.text,
    cell: (finding) => {
      const reported = details.get(detailsKey(finding));
      return (
        <>
          <span>{finding.text}</span>
          {reported?.details && <span className="finding-detail">Details: {reported.details}</span>}
          {reported?.solution && <span className="finding-detail">Solution: {reported.solution}</span>}
        </>
      );
    },
  };
}
