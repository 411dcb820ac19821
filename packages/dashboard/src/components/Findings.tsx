import type { Finding } from '@org/audit-client/sdk';
import { hostsRoute, hrefOf } from '../route.js';
import { Table, type Column } from './Table.js';

/**
 * The warnings or the suggestions of a host's newest report, as a table; each test id lists the hosts that have it.
 * `level` is its heading's, 3 inside a section of its own.
 */
export function Findings({ title, kind, findings, level = 2 }: { title: string; kind: 'warning' | 'suggestion'; findings: Finding[]; level?: 2 | 3 }) {
  const id = `${title.toLowerCase()}-title`;
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby={id}>
      <Heading id={id}>
        {title} ({findings.length})
      </Heading>
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
