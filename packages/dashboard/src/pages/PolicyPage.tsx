import { useState } from 'react';
import { deletePolicy, getPolicy, listLicenseKeys, updatePolicy, type LicenseKeyInfo, type Policy } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { useCan } from '../permissions.js';
import { useDocumentTitle } from '../page-title.js';
import { deleteQuestion, policyInputOf, scopeText } from '../policy-text.js';
import { hrefOf, type PageProps, type RouteOf } from '../route.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { FailureQueue } from '../components/FailureQueue.js';
import { PolicyForm } from '../components/PolicyForm.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';
import { When } from '../components/When.js';

/**
 * One policy: its facts and rules with their counts; enabling, disabling, editing (with a preview) and deleting it;
 * and the work queue of its failures, each acceptable in place. Names, expressions and everything a host sent are
 * shown as text only.
 */
export function PolicyPage(props: PageProps<'policy'>) {
  // Another policy is a new page: its form starts from its own rules.
  return <PolicyView key={props.route.id} {...props} />;
}

function PolicyView({ client, route, onUnauthorized }: PageProps<'policy'>) {
  const [policy, reloadPolicy] = useLoad(() => data(getPolicy({ client, path: { policyId: route.id } })), route.id, onUnauthorized);
  const [keys] = useLoad(async () => (await data(listLicenseKeys({ client }))).items, 'keys', onUnauthorized);
  const [editing, setEditing] = useState(false);
  const settings = useChange(reloadPolicy, onUnauthorized);
  // Once deleted there is nothing to reload: back to the list.
  const removal = useChange(() => (window.location.hash = hrefOf({ page: 'policies' })), onUnauthorized);
  useDocumentTitle(route, policy.state === 'ready' ? policy.value.name : undefined);
  const mayUpdate = useCan('updatePolicy');
  const mayDelete = useCan('deletePolicy');
  if (policy.state !== 'ready') return <Status loaded={policy} />;
  const current = policy.value;
  const toggle = () =>
    void settings.change(
      async () => void (await data(updatePolicy({ client, path: { policyId: current.id }, body: { ...policyInputOf(current), enabled: !current.enabled } }))),
    );
  const remove = () => {
    if (!confirm(deleteQuestion(current))) return;
    void removal.change(async () => void (await data(deletePolicy({ client, path: { policyId: current.id } }))));
  };
  return (
    <section aria-labelledby="policy-title">
      <p>
        <a href={hrefOf({ page: 'policies' })}>All policies</a>
      </p>
      <h1 id="policy-title" tabIndex={-1}>
        Policy: {current.name}
      </h1>
      <Facts policy={current} keys={keys.state === 'ready' ? keys.value : []} />
      {(mayUpdate || mayDelete) && (
        <div className="actions">
          {mayUpdate && (
            <button type="button" onClick={toggle}>
              {current.enabled ? 'Disable' : 'Enable'}
            </button>
          )}
          {mayUpdate && (
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit
            </button>
          )}
          {mayDelete && (
            <button type="button" className="danger" onClick={remove}>
              Delete
            </button>
          )}
        </div>
      )}
      {[settings.problem, removal.problem].filter(Boolean).map((problem) => (
        <p key={problem} className="error" role="alert">
          {problem}
        </p>
      ))}
      {mayUpdate && editing && (
        <PolicyForm
          client={client}
          onUnauthorized={onUnauthorized}
          initial={current}
          title="Edit the policy"
          submitLabel="Save changes"
          save={(input) => updatePolicy({ client, path: { policyId: current.id }, body: input })}
          onSaved={() => {
            setEditing(false);
            reloadPolicy();
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      <Rules policy={current} route={route} />
      <FailureQueue client={client} policy={current} route={route} onUnauthorized={onUnauthorized} />
    </section>
  );
}

function Facts({ policy, keys }: { policy: Policy; keys: LicenseKeyInfo[] }) {
  const { hosts } = policy;
  return (
    <dl className="facts">
      <dt>Description</dt>
      <dd>{policy.description ?? '—'}</dd>
      <dt>State</dt>
      <dd>
        {policy.enabled ? 'enabled' : 'disabled'}
        {policy.quarantine && (
          <span className="error">
            {' '}
            (quarantined <When time={policy.quarantine.at} />: {policy.quarantine.reason})
          </span>
        )}
      </dd>
      <dt>Covers</dt>
      <dd>{scopeText(policy, keys)}</dd>
      <dt>Hosts</dt>
      <dd>
        {hosts.pass} pass, {hosts.fail} fail, {hosts.error} error, {hosts.waived} waived
      </dd>
      <dt>Changed</dt>
      <dd>
        <When time={policy.updatedAt} /> (created <When time={policy.createdAt} />)
      </dd>
    </dl>
  );
}

type PolicyRule = Policy['rules'][number];

/** The rules with their counts; a rule's failures link to the work queue showing only that rule. */
function Rules({ policy, route }: { policy: Policy; route: RouteOf<'policy'> }) {
  const columns: Column<PolicyRule>[] = [
    { header: 'Rule', cell: (rule) => <RuleText rule={rule} /> },
    { header: 'Pass', className: 'number', cell: (rule) => rule.results.pass },
    {
      header: 'Fail',
      className: 'number',
      cell: (rule) => (rule.results.fail === 0 ? 0 : <a href={hrefOf({ ...route, rule: rule.id, status: undefined, offset: 0 })}>{rule.results.fail}</a>),
    },
    { header: 'Error', className: 'number', cell: (rule) => rule.results.error },
    { header: 'Waived', className: 'number', cell: (rule) => rule.results.waived },
  ];
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      <Table className="policy-rules" columns={columns} rows={policy.rules} rowKey={(rule) => rule.id} />
    </section>
  );
}

function RuleText({ rule }: { rule: PolicyRule }) {
  return (
    <>
      <code>{rule.id}</code>
      {rule.description && <span className="sub">{rule.description}</span>}
      {rule.controls && rule.controls.length > 0 && <span className="sub">Controls: {rule.controls.join(', ')}</span>}
      <code className="mono sub">{rule.expression}</code>
    </>
  );
}
