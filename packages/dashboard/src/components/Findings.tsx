import type { Finding } from '@org/audit-client/sdk';
import { hostsRoute, hrefOf } from '../route.js';

/** The warnings or the suggestions of a host's newest report, as a table; each test id lists the hosts that have it. */
export function Findings({ title, kind, findings }: { title: string; kind: 'warning' | 'suggestion'; findings: Finding[] }) {
  const id = `${title.toLowerCase()}-title`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title} ({findings.length})</h2>
      {findings.length === 0 ? (
        <p>None in the newest report.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Finding</th>
                <th scope="col">Details</th>
                <th scope="col">Solution</th>
              </tr>
            </thead>
            <tbody>
              {findings.map((finding, index) => (
                <tr key={`${finding.testId}-${index}`}>
                  <td className="mono nowrap">
                    <a href={hrefOf(hostsRoute({ finding: finding.testId, findingKind: kind }))} title="Every host with this finding">{finding.testId}</a>
                  </td>
                  <td>{finding.text}</td>
                  <td>{finding.details ?? '—'}</td>
                  <td>{finding.solution ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
