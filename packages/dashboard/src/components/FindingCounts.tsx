import type { FindingCount } from '@org/audit-client/sdk';
import { hostsRoute, hrefOf } from '../route.js';
import type { Column } from './Table.js';

/** The hosts list of the hosts that have a finding. */
const hostsWith = (finding: FindingCount) => hrefOf(hostsRoute({ finding: finding.testId, findingKind: finding.kind }));

/** A finding's test id, as a link to the hosts that have it. */
export const TEST_COLUMN: Column<FindingCount> = {
  header: 'Test',
  cellClassName: 'mono nowrap',
  cell: (finding) => (
    <a href={hostsWith(finding)} title="The hosts that have it">
      {finding.testId}
    </a>
  ),
};

/** How many hosts have a finding, as a link to them. */
export function hostsColumn(header: string): Column<FindingCount> {
  return {
    header,
    className: 'number',
    cell: (finding) => (
      <a href={hostsWith(finding)} aria-label={`${finding.hosts === 1 ? '1 host' : `${finding.hosts} hosts`} with ${finding.testId}`}>
        {finding.hosts}
      </a>
    ),
  };
}
