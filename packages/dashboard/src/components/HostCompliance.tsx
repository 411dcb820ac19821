import { useRef, useState } from 'react';
import {
  createWaiver,
  getHost,
  getHostCompliance,
  listPolicies,
  type Client,
  type HostCompliance as HostComplianceAnswer,
  type PolicyResult,
} from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { ApiError, data } from '../api.js';
import { When } from './When.js';
import { hrefOf } from '../route.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { useWaiverMaxDays } from '../use-waiver-max-days.js';
import { waiverInputOf } from '../waiver-form.js';
import { LoadedTable, type Column } from './Table.js';
import { WaiverForm, type WaiverFormValues, type WaiverScope } from './WaiverForm.js';
import { readableRuleValue } from '../format.js';

type HostComplianceStatus = HostComplianceAnswer['status'];

/** What the panel shows: the host's results, its name and groups (offered to a waiver), and the policies' names. */
interface ComplianceView {
  status: HostComplianceStatus;
  results: PolicyResult[];
  hostname: string | null;
  groups: string[];
  policyNames: Map<string, string>;
}

async function loadView(client: Client, hostRecordId: string): Promise<ComplianceView> {
  const [compliance, host, policies] = await Promise.all([
    data(getHostCompliance({ client, path: { hostRecordId } })),
    data(getHost({ client, path: { hostRecordId } })),
    data(listPolicies({ client })),
  ]);
  return {
    status: compliance.status,
    results: compliance.results,
    hostname: host.hostname,
    groups: host.groups,
    policyNames: new Map(policies.items.map((policy) => [policy.id, policy.name])),
  };
}

const keyOf = (result: PolicyResult) => `${result.policyId} ${result.ruleId}`;
const isFailing = (result: PolicyResult) => result.status === 'fail' || result.status === 'error';

/**
 * A host's results on every policy, with the value each rule saw; a failing or erring rule can be accepted in place
 * ("Accept…" opens the waiver form under the table, for this host, one of its groups or every host).
 */
export function HostCompliance({ client, hostRecordId, onUnauthorized }: { client: Client; hostRecordId: string; onUnauthorized(): void }) {
  const [loaded, reload] = useLoad(() => loadView(client, hostRecordId), hostRecordId, onUnauthorized);
  const maxDays = useWaiverMaxDays(client, onUnauthorized);
  const [accepting, setAccepting] = useState<PolicyResult>();
  const mayAccept = useCan('createWaiver');
  const [accepted, setAccepted] = useState<string>();
  const acceptedRef = useRef<HTMLParagraphElement>(null);
  const view = loaded.state === 'ready' ? loaded.value : undefined;
  const subjectOf = (result: PolicyResult) => `${view?.policyNames.get(result.policyId) ?? result.policyId} / ${result.ruleId}`;

  const save = async (result: PolicyResult, values: WaiverFormValues) => {
    try {
      await data(createWaiver({ client, body: waiverInputOf(values, { policyId: result.policyId, ruleId: result.ruleId, hostRecordId }) }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      throw error;
    }
    setAccepting(undefined);
    setAccepted(`Accepted ${subjectOf(result)} for ${coverage(values, view?.hostname)} until ${values.expiresAt.slice(0, 10)}.`);
    reload();
    // The button that opened the form goes with the failure: the confirmation takes focus instead.
    setTimeout(() => acceptedRef.current?.focus());
  };
  const actions: Column<PolicyResult> = {
    header: 'Actions',
    cell: (result) =>
      mayAccept &&
      isFailing(result) && (
        <button
          type="button"
          aria-expanded={accepting !== undefined && keyOf(accepting) === keyOf(result)}
          aria-label={`Accept ${subjectOf(result)}…`}
          onClick={() => setAccepting(result)}
        >
          Accept…
        </button>
      ),
  };
  return (
    <section aria-labelledby="compliance-title">
      <h2 id="compliance-title">Compliance{view?.status ? `: ${view.status}` : ''}</h2>
      {accepted && (
        <p className="status" role="status" tabIndex={-1} ref={acceptedRef}>
          {accepted}
        </p>
      )}
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
        columns={[...COLUMNS, actions]}
        rowKey={keyOf}
      />
      {accepting && view && maxDays !== undefined && (
        <WaiverForm
          key={keyOf(accepting)}
          subject={subjectOf(accepting)}
          scopes={view.groups.length > 0 ? ['host', 'group', 'fleet'] : ['host', 'fleet']}
          hostLabel={view.hostname ?? 'this host'}
          groups={view.groups}
          maxDays={maxDays}
          onSubmit={(values) => save(accepting, values)}
          onCancel={() => setAccepting(undefined)}
        />
      )}
    </section>
  );
}

/** Who an accepted waiver covers, in words. */
function coverage(values: WaiverFormValues, hostname: string | null | undefined): string {
  const words: Record<WaiverScope, string> = {
    host: hostname ?? 'this host',
    group: `the group ${values.group ?? ''}`,
    fleet: 'every host',
  };
  return words[values.scope];
}

const COLUMNS: Column<PolicyResult>[] = [
  { header: 'Rule', cell: (result) => <code>{result.ruleId}</code> },
  { header: 'Status', cellClassName: (result) => `status-${result.status}`, cell: (result) => result.status },
  { header: 'Value seen', cellClassName: 'mono', cell: (result) => (result.value == null ? '—' : <RuleValue value={result.value} />) },
  { header: 'Since', cell: (result) => <When time={result.since} /> },
  { header: 'Why it erred', cell: (result) => result.message ?? '—' },
];

/** A rule's value with durations as people write them; the exact CEL value on hover. */
export function RuleValue({ value }: { value: string }) {
  const { text, exact } = readableRuleValue(value);
  return exact === undefined ? text : <span title={exact}>{text}</span>;
}
