import { getHostCompliance, type Client } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { hrefOf } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from './Status.js';

/** A host's results on every policy, with the value each rule saw, and the latest changes of status. */
export function HostCompliance({ client, hostRecordId, onUnauthorized }: { client: Client; hostRecordId: string; onUnauthorized(): void }) {
  const [loaded] = useLoad(() => data(getHostCompliance({ client, path: { hostRecordId } })), hostRecordId, onUnauthorized);
  return (
    <section aria-labelledby="compliance-title">
      <h2 id="compliance-title">Compliance{loaded.state === 'ready' && loaded.value.status ? `: ${loaded.value.status}` : ''}</h2>
      <Status loaded={loaded} />
      {loaded.state === 'ready' &&
        (loaded.value.results.length === 0 ? (
          <p>
            No policy applies to this host yet. <a className="screen-only" href={hrefOf({ page: 'policies' })}>Policies</a>
          </p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Status</th>
                <th scope="col">Value seen</th>
                <th scope="col">Since</th>
                <th scope="col">Why it erred</th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.results.map((result) => (
                <tr key={`${result.policyId} ${result.ruleId}`}>
                  <td><code>{result.ruleId}</code></td>
                  <td className={`status-${result.status}`}>{result.status}</td>
                  <td className="mono">{result.value ?? '—'}</td>
                  <td>{formatTime(result.since)}</td>
                  <td>{result.message ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
