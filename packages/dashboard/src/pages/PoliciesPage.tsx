import type { ReactNode } from 'react';
import { createPolicy, deletePolicy, enableBaselinePolicy, listPolicies, updatePolicy, type Client, type Policy } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { useCan } from '../permissions.js';
import { formatTime } from '../format.js';
import { deleteQuestion, policyInputOf, scopeText } from '../policy-text.js';
import { hrefOf } from '../route.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { BaselineOffer } from '../components/BaselineOffer.js';
import { PolicyForm } from '../components/PolicyForm.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

/**
 * Compliance policies: each with how many hosts pass, fail, err or are waived, overall and per rule, its name leading
 * to its page (where it is edited and its failures worked through); the shipped baseline while none is named
 * Baseline; and a form for a new policy, previewed before it is created. The waivers have a page of their own
 * (Exceptions). Expressions are shown as text only.
 */
export function PoliciesPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [loaded, reload] = useLoad(async () => (await data(listPolicies({ client }))).items, 'policies', onUnauthorized);
  const { problem, change } = useChange(reload, onUnauthorized);
  const may = { update: useCan('updatePolicy'), delete: useCan('deletePolicy'), baseline: useCan('enableBaselinePolicy'), create: useCan('createPolicy') };
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const policies = loaded.value;
  const actions = (policy: Policy) => (
    <div className="actions">
      {may.update && (
        <button
          type="button"
          onClick={() =>
            void change(
              async () =>
                void (await data(updatePolicy({ client, path: { policyId: policy.id }, body: { ...policyInputOf(policy), enabled: !policy.enabled } }))),
            )
          }
        >
          {policy.enabled ? 'Disable' : 'Enable'}
        </button>
      )}
      {may.delete && (
        <button
          type="button"
          onClick={() => confirm(deleteQuestion(policy)) && void change(async () => void (await data(deletePolicy({ client, path: { policyId: policy.id } }))))}
        >
          Delete
        </button>
      )}
    </div>
  );
  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title" tabIndex={-1}>
        Policies
      </h1>
      <p className="hint">
        Rules are CEL expressions over each host's latest report, evaluated in the background within seconds of an upload or a change, each within a budget of
        time and size; a policy whose rules overrun it is quarantined (disabled) until enabled again. Failing rules accepted for a while are on the{' '}
        <a href={hrefOf({ page: 'waivers' })}>Exceptions</a> page.
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {policies.length === 0 ? <p>No policies yet.</p> : <Table columns={policyColumns(actions)} rows={policies} rowKey={(policy) => policy.id} />}
      {/* The baseline can be added beside other policies at any time; the server answers 409 once one named Baseline exists. */}
      {may.baseline && !policies.some((policy) => policy.name === 'Baseline') && (
        <BaselineOffer
          client={client}
          onUnauthorized={onUnauthorized}
          onEnable={() => void change(async () => void (await data(enableBaselinePolicy({ client }))))}
        />
      )}
      {may.create && (
        <PolicyForm
          client={client}
          onUnauthorized={onUnauthorized}
          title="New policy"
          submitLabel="Create policy"
          save={(input) => createPolicy({ client, body: input })}
          onSaved={reload}
        />
      )}
    </section>
  );
}

/** The columns of the policies list: each policy (a link to its page) with its rules, and how many hosts pass, fail, err or are waived. */
function policyColumns(actions: (policy: Policy) => ReactNode): Column<Policy>[] {
  const policyHref = (policy: Policy) => hrefOf({ page: 'policy', id: policy.id, offset: 0 });
  return [
    { header: 'Policy', cell: (policy) => <PolicyName policy={policy} href={policyHref(policy)} actions={actions} /> },
    { header: 'Rules', cell: (policy) => <PolicyRules policy={policy} /> },
    { header: 'Pass', className: 'number', cell: (policy) => policy.hosts.pass },
    { header: 'Fail', className: 'number', cell: (policy) => (policy.hosts.fail === 0 ? 0 : <a href={policyHref(policy)}>{policy.hosts.fail}</a>) },
    { header: 'Error', className: 'number', cell: (policy) => policy.hosts.error },
    { header: 'Waived', className: 'number', cell: (policy) => policy.hosts.waived },
  ];
}

/** A policy's name (a link to its page), scope, quarantine (if any) and its buttons. */
function PolicyName({ policy, href, actions }: { policy: Policy; href: string; actions(policy: Policy): ReactNode }) {
  return (
    <>
      <a href={href}>
        <strong>{policy.name}</strong>
      </a>
      {!policy.enabled && <span className="sub"> (disabled)</span>}
      <div className="sub">{scopeText(policy)}</div>
      {policy.quarantine && (
        <p className="error" role="status">
          Quarantined {formatTime(policy.quarantine.at)}: {policy.quarantine.reason}
        </p>
      )}
      {actions(policy)}
    </>
  );
}

/** A policy's rules, each with its expression and how many hosts pass, fail, err or are waived. */
function PolicyRules({ policy }: { policy: Policy }) {
  return (
    <ul className="plain">
      {policy.rules.map((rule) => (
        <li key={rule.id}>
          <code>{rule.id}</code>: <code className="mono">{rule.expression}</code>{' '}
          <span className="sub">
            ({rule.results.pass} pass, {rule.results.fail} fail, {rule.results.error} error, {rule.results.waived} waived)
          </span>
        </li>
      ))}
    </ul>
  );
}
