import type { Finding } from '@org/audit-client/sdk';
import { hostsRoute, hrefOf } from '../route.js';
import { Table, type Column } from './Table.js';

/** The warnings or the suggestions of a host's newest report, as a table; each test id lists the hosts that have it. */
export function Findings({ title, kind, findings }: { title: string; kind: 'warning' | 'suggestion'; findings: Finding[] }) {
  const id = `${title.toLowerCase()}-title`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {title} ({findings.length})
      </h2>
      <Table
        scroll
        empty={<p>None in the newest report.</p>}
        columns={columns(kind)}
        rows={findings}
        rowKey={(finding, index) => `${finding.testId}-${index}`}
      />
    </section>
  );
}

function columns(kind: 'warning' | 'suggestion'): Column<Finding>[] {
  return [
    {
      header: 'Test',
      cellClassName: 'mono nowrap',
      cell: (finding) => (
        <a href={hrefOf(hostsRoute({ finding: finding.testId, findingKind: kind }))} title="Every host with this finding">
          {finding.testId}
        </a>
      ),
    },
    { header: 'Finding', cell: (finding) => finding.text },
    { header: 'Details', cell: (finding) => finding.details ?? '—' },
    { header: 'Solution', cell: (finding) => finding.solution ?? '—' },
  ];
}
