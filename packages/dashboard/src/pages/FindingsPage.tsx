import { useEffect, useState, type FormEvent } from 'react';
import { exportFindings, listFindings, type Client } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { hostsRoute, hrefOf, type FindingKind, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { Status } from '../components/Status.js';
import { Pager } from '../components/Pager.js';

const PAGE_SIZE = 50;

type FindingsRoute = Extract<Route, { page: 'findings' }>;

/** The warnings and suggestions of every host's latest report, most hosts affected first; a test id lists its hosts. */
export function FindingsPage({ client, route, onUnauthorized }: { client: Client; route: FindingsRoute; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    () => data(listFindings({ client, query: { limit: PAGE_SIZE, offset: route.offset, kind: route.kind, testId: route.testId } })),
    hrefOf(route),
    onUnauthorized,
  );
  const [testId, setTestId] = useState(route.testId ?? '');
  useEffect(() => setTestId(route.testId ?? ''), [route.testId]);
  const search = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ ...route, testId: testId.trim() || undefined, offset: 0 });
  };
  const kind = (value: string) => (window.location.hash = hrefOf({ ...route, kind: (value || undefined) as FindingKind | undefined, offset: 0 }));
  return (
    <section aria-labelledby="findings-title">
      <h1 id="findings-title">Findings</h1>
      <p className="hint">The warnings and suggestions of every host's latest report, the ones on the most hosts first. A test id lists the hosts that have it.</p>
      <ExportButtons
        label="Every finding of every host's latest report, one row per host and finding"
        name="findings"
        request={(format) => exportFindings({ client, query: { format }, parseAs: 'blob' })}
        onUnauthorized={onUnauthorized}
      />
      <form className="filters" role="search" aria-label="Filter findings" onSubmit={search}>
        <label htmlFor="finding-kind">Kind</label>
        <select id="finding-kind" value={route.kind ?? ''} onChange={(event) => kind(event.target.value)}>
          <option value="">Warnings and suggestions</option>
          <option value="warning">Warnings</option>
          <option value="suggestion">Suggestions</option>
        </select>
        <label htmlFor="finding-test-id">Test id</label>
        <input id="finding-test-id" className="mono" value={testId} onChange={(event) => setTestId(event.target.value)} placeholder="e.g. SSH-7408" />
        <button type="submit">Search</button>
        {route.testId && <a href={hrefOf({ ...route, testId: undefined, offset: 0 })}>Every test id</a>}
      </form>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          <div className="table-scroll">
            <table>
              <caption>
                {loaded.value.total === 0
                  ? route.kind || route.testId
                    ? 'No host\'s latest report has such a finding.'
                    : 'No host\'s latest report has a warning or suggestion.'
                  : `Findings ${loaded.value.offset + 1}–${loaded.value.offset + loaded.value.items.length} of ${loaded.value.total}`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Test</th>
                  <th scope="col">Finding (on one of the hosts)</th>
                  <th scope="col" className="number">Hosts affected</th>
                </tr>
              </thead>
              <tbody>
                {loaded.value.items.map((finding) => {
                  const hosts = hrefOf(hostsRoute({ finding: finding.testId, findingKind: finding.kind }));
                  return (
                    <tr key={`${finding.kind}:${finding.testId}`}>
                      <td><span className={`kind kind-${finding.kind}`}>{finding.kind === 'warning' ? 'Warning' : 'Suggestion'}</span></td>
                      <td className="mono nowrap"><a href={hosts} title="The hosts that have it">{finding.testId}</a></td>
                      <td>{finding.text}</td>
                      <td className="number"><a href={hosts} aria-label={`${finding.hosts === 1 ? "1 host" : `${finding.hosts} hosts`} with ${finding.testId}`}>{finding.hosts}</a></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager route={route} pageSize={PAGE_SIZE} total={loaded.value.total} label="Pages of findings" />
        </>
      )}
    </section>
  );
}
