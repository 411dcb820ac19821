import { getHostCompliance, type Client, type PolicyResult } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { When } from './When.js';
import { hrefOf } from '../route.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { LoadedTable, type Column } from './Table.js';
import { readableRuleValue } from '../format.js';

/** A host's results on every policy, with the value each rule saw, and the latest changes of status. */
export function HostCompliance({ client, hostRecordId, onUnauthorized }: { client: Client; hostRecordId: string; onUnauthorized(): void }) {
  const [loaded] = useLoad(() => data(getHostCompliance({ client, path: { hostRecordId } })), hostRecordId, onUnauthorized);
  return (
    <section aria-labelledby="compliance-title">
      <h2 id="compliance-title">Compliance{loaded.state === 'ready' && loaded.value.status ? `: ${loaded.value.status}` : ''}</h2>
      <LoadedTable
        loaded={mapLoaded(loaded, (value) => value.results)}
        empty={
          <p>
            No policy applies to this host yet.{' '}
            <a className="screen-only" href={hrefOf({ page: 'policies' })}>
              Policies
            </a>
          </p>
        }
        columns={COLUMNS}
        rowKey={(result) => `${result.policyId} ${result.ruleId}`}
      />
    </section>
  );
}

const COLUMNS: Column<PolicyResult>[] = [
  { header: 'Rule', cell: (result) => <code>{result.ruleId}</code> },
  { header: 'Status', cellClassName: (result) => `status-${result.status}`, cell: (result) => result.status },
  { header: 'Value seen', cellClassName: 'mono', cell: (result) => (result.value == null ? '—' : <RuleValue value={result.value} />) },
  { header: 'Since', cell: (result) => <When time={result.since} /> },
  { header: 'Why it erred', cell: (result) => result.message ?? '—' },
];

/** A rule's value with durations as people write them; the exact CEL value on hover. */
function RuleValue({ value }: { value: string }) {
  const { text, exact } = readableRuleValue(value);
  return exact === undefined ? text : <span title={exact}>{text}</span>;
}
