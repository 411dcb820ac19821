import { useState, type FormEvent, type ReactNode } from 'react';
import {
  createPolicy,
  createWaiver,
  deletePolicy,
  deleteWaiver,
  enableBaselinePolicy,
  listPolicies,
  listPolicyResults,
  listWaivers,
  updatePolicy,
  type Client,
  type Policy,
  type PolicyResult,
  type Waiver,
  type RuleError,
} from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { hrefOf } from '../route.js';
import { useChange } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { BaselineOffer } from '../components/BaselineOffer.js';
import { Status } from '../components/Status.js';
import { LoadedTable, Table, type Column } from '../components/Table.js';

/** Failing results listed per policy; the API pages through the rest. */
const RESULTS_SHOWN = 50;
const DAY_MS = 86_400_000;

/**
 * Compliance policies: each with how many hosts pass, fail, err or are waived, overall and per rule; a form for a
 * new policy whose rule errors are shown under the rule they belong to, at their position; the failing hosts of a
 * policy, each waivable; and the waivers in force. Expressions and reasons are shown as text only.
 */
export function PoliciesPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [loaded, reload] = useLoad(
    async () => {
      const [policies, waivers] = await Promise.all([data(listPolicies({ client })), data(listWaivers({ client }))]);
      return { policies: policies.items, waivers: waivers.items };
    },
    'policies',
    onUnauthorized,
  );
  const [selected, setSelected] = useState<string>();
  const { problem, change } = useChange(reload, onUnauthorized);
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const { policies, waivers } = loaded.value;
  const current = policies.find((policy) => policy.id === selected);
  const policyActions: PolicyActions = {
    buttons: (policy) => (
      <div>
        <button
          type="button"
          onClick={() =>
            void change(
              async () => void (await data(updatePolicy({ client, path: { policyId: policy.id }, body: { ...inputOf(policy), enabled: !policy.enabled } }))),
            )
          }
        >
          {policy.enabled ? 'Disable' : 'Enable'}
        </button>{' '}
        <button type="button" onClick={() => void change(async () => void (await data(deletePolicy({ client, path: { policyId: policy.id } }))))}>
          Delete
        </button>
      </div>
    ),
    showFailing: (policy) => (
      <button type="button" onClick={() => setSelected(policy.id)} aria-pressed={selected === policy.id}>
        Show failing hosts
      </button>
    ),
  };
  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title" tabIndex={-1}>
        Policies
      </h1>
      <p className="hint">
        Rules are CEL expressions over each host's latest report, evaluated in the background within seconds of an upload or a change, each within a budget of
        time and size; a policy whose rules overrun it is quarantined (disabled) until enabled again.
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {policies.length === 0 ? <p>No policies yet.</p> : <Table columns={policyColumns(policyActions)} rows={policies} rowKey={(policy) => policy.id} />}
      {/* The baseline can be added beside other policies at any time; the server answers 409 once one named Baseline exists. */}
      {!policies.some((policy) => policy.name === 'Baseline') && (
        <BaselineOffer
          client={client}
          onUnauthorized={onUnauthorized}
          onEnable={() => void change(async () => void (await data(enableBaselinePolicy({ client }))))}
        />
      )}
      {current && <FailingHosts client={client} policy={current} onUnauthorized={onUnauthorized} onChange={change} />}
      <NewPolicy client={client} onUnauthorized={onUnauthorized} onCreated={reload} />
      <h2>Waivers</h2>
      <Table
        empty={<p>No waivers in force.</p>}
        columns={waiverColumns(policies, (waiver) => (
          <button type="button" onClick={() => void change(async () => void (await data(deleteWaiver({ client, path: { waiverId: waiver.id } }))))}>
            Delete
          </button>
        ))}
        rows={waivers}
        rowKey={(waiver) => waiver.id}
      />
    </section>
  );
}

/** What a policy's row can do: its enable/disable and delete buttons, and the button that lists its failing hosts. */
interface PolicyActions {
  buttons(policy: Policy): ReactNode;
  showFailing(policy: Policy): ReactNode;
}

/** The columns of the policies list: each policy with its rules, and how many hosts pass, fail, err or are waived. */
function policyColumns(actions: PolicyActions): Column<Policy>[] {
  return [
    { header: 'Policy', cell: (policy) => <PolicyName policy={policy} actions={actions.buttons} /> },
    { header: 'Rules', cell: (policy) => <PolicyRules policy={policy} /> },
    { header: 'Pass', className: 'number', cell: (policy) => policy.hosts.pass },
    { header: 'Fail', className: 'number', cell: (policy) => policy.hosts.fail },
    { header: 'Error', className: 'number', cell: (policy) => policy.hosts.error },
    { header: 'Waived', className: 'number', cell: (policy) => policy.hosts.waived },
    { header: 'Failing hosts', cell: actions.showFailing },
  ];
}

/** A policy's name, scope, quarantine (if any) and buttons. */
function PolicyName({ policy, actions }: { policy: Policy; actions(policy: Policy): ReactNode }) {
  return (
    <>
      <strong>{policy.name}</strong>
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

/** The columns of the waivers in force; the last holds each waiver's delete button. */
function waiverColumns(policies: Policy[], actions: (waiver: Waiver) => ReactNode): Column<Waiver>[] {
  return [
    { header: 'Policy', cell: (waiver) => policies.find((policy) => policy.id === waiver.policyId)?.name ?? waiver.policyId },
    { header: 'Rule', cell: (waiver) => waiver.ruleId ?? 'every rule' },
    {
      header: 'For',
      cell: (waiver) => (waiver.hostRecordId ? <a href={hrefOf({ page: 'host', id: waiver.hostRecordId })}>host</a> : `group ${waiver.group ?? ''}`),
    },
    { header: 'Reason', cell: (waiver) => waiver.reason },
    { header: 'Expires', cell: (waiver) => formatTime(waiver.expiresAt) },
    { header: 'Actions', cell: actions },
  ];
}

/** A policy as its input again (to replace it with one thing changed). */
function inputOf(policy: Policy) {
  return {
    name: policy.name,
    description: policy.description,
    enabled: policy.enabled,
    scope: policy.scope,
    rules: policy.rules.map(({ id, description, expression }) => ({ id, description, expression })),
  };
}

/** The hosts failing a policy, newest status first, each with a button that waives that rule for 30 days. */
function FailingHosts({
  client,
  policy,
  onUnauthorized,
  onChange,
}: {
  client: Client;
  policy: Policy;
  onUnauthorized(): void;
  onChange(work: () => Promise<void>): Promise<void>;
}) {
  const [results, reload] = useLoad(
    () => data(listPolicyResults({ client, path: { policyId: policy.id }, query: { status: 'fail', limit: RESULTS_SHOWN } })),
    `${policy.id} ${policy.hosts.fail} ${policy.hosts.waived}`,
    onUnauthorized,
  );
  const waive = (hostRecordId: string, ruleId: string) => {
    const reason = window.prompt(`Why may this host fail ${ruleId}? (waived for 30 days)`);
    if (!reason?.trim()) return;
    void onChange(async () => {
      await data(
        createWaiver({
          client,
          body: { policyId: policy.id, ruleId, hostRecordId, reason: reason.trim(), expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() },
        }),
      );
      reload();
    });
  };
  return (
    <section aria-labelledby="failing-title">
      <h2 id="failing-title">Failing hosts: {policy.name}</h2>
      <LoadedTable
        loaded={mapLoaded(results, (value) => value.items)}
        empty={<p>No host fails this policy.</p>}
        columns={failingColumns((result) => (
          <button type="button" onClick={() => waive(result.hostRecordId, result.ruleId)}>
            Waive
          </button>
        ))}
        rowKey={(result) => `${result.hostRecordId} ${result.ruleId}`}
      />
    </section>
  );
}

/** The columns of a policy's failing hosts; the last holds the button that waives one. */
function failingColumns(waive: (result: PolicyResult) => ReactNode): Column<PolicyResult>[] {
  return [
    { header: 'Host', cell: (result) => <a href={hrefOf({ page: 'host', id: result.hostRecordId })}>{result.hostname ?? result.hostId}</a> },
    { header: 'Rule', cell: (result) => <code>{result.ruleId}</code> },
    { header: 'Value seen', cellClassName: 'mono', cell: (result) => result.value ?? '—' },
    { header: 'Failing since', cell: (result) => formatTime(result.since) },
    { header: 'Actions', cell: waive },
  ];
}

/** A rule as the form edits it. */
interface DraftRule {
  id: string;
  expression: string;
}

/** The form for a new policy; a rule whose expression does not check shows its error under it, at its position. */
function NewPolicy({ client, onUnauthorized, onCreated }: { client: Client; onUnauthorized(): void; onCreated(): void }) {
  const [name, setName] = useState('');
  const [group, setGroup] = useState('');
  const [rules, setRules] = useState<DraftRule[]>([{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }]);
  const [errors, setErrors] = useState<RuleError[]>([]);
  const [problem, setProblem] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setErrors([]);
    const { error, response } = await createPolicy({ client, body: { name: name.trim(), scope: group.trim() ? { group: group.trim() } : {}, rules } });
    if (response?.status === 401) return onUnauthorized();
    if (response?.ok) {
      setName('');
      return onCreated();
    }
    const problemBody = error as { detail?: string; errors?: RuleError[] } | undefined;
    setErrors(problemBody?.errors ?? []);
    setProblem(problemBody?.detail ?? `The server answered ${response?.status ?? 'nothing'}`);
  };
  const setRule = (index: number, rule: Partial<DraftRule>) => setRules(rules.map((old, i) => (i === index ? { ...old, ...rule } : old)));
  return (
    <form className="policy-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-policy-title">
      <h2 id="new-policy-title">New policy</h2>
      <div className="filters">
        <label htmlFor="policy-name">Name</label>
        <input id="policy-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
        <label htmlFor="policy-group">Only hosts of group</label>
        <input id="policy-group" value={group} onChange={(event) => setGroup(event.target.value)} placeholder="every host" maxLength={255} />
      </div>
      {rules.map((rule, index) => (
        <RuleFields
          key={index}
          rule={rule}
          index={index}
          errors={errors.filter((error) => error.ruleId === rule.id)}
          onChange={(change) => setRule(index, change)}
          onRemove={rules.length > 1 ? () => setRules(rules.filter((_, i) => i !== index)) : undefined}
        />
      ))}
      <div className="actions">
        <button type="button" onClick={() => setRules([...rules, { id: `rule-${rules.length + 1}`, expression: '' }])}>
          Add a rule
        </button>
        <button type="submit">Create policy</button>
      </div>
      {problem && errors.length === 0 && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** One rule of the new policy: its id and expression, the server's errors about it, and its removal (none for the last one). */
function RuleFields({
  rule,
  index,
  errors,
  onChange,
  onRemove,
}: {
  rule: DraftRule;
  index: number;
  errors: RuleError[];
  onChange(change: Partial<DraftRule>): void;
  onRemove?(): void;
}) {
  return (
    <fieldset className="rule">
      <legend>Rule {index + 1}</legend>
      <label htmlFor={`rule-id-${index}`}>Rule id</label>
      <input id={`rule-id-${index}`} value={rule.id} onChange={(event) => onChange({ id: event.target.value })} pattern="[a-z0-9][a-z0-9\-]{0,63}" required />
      <label htmlFor={`rule-expression-${index}`}>Expression</label>
      <textarea
        id={`rule-expression-${index}`}
        className="mono"
        value={rule.expression}
        onChange={(event) => onChange({ expression: event.target.value })}
        rows={2}
        required
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? `rule-error-${index}` : undefined}
      />
      {errors.map((error, i) => (
        <div key={i} id={`rule-error-${index}`} className="rule-error" role="alert">
          {error.position !== null && (
            <pre className="mono" aria-hidden="true">
              {rule.expression}
              {'\n'}
              {' '.repeat(error.position)}^
            </pre>
          )}
          <p>
            {error.message}
            {error.position !== null && ` (at character ${error.position + 1})`}
          </p>
        </div>
      ))}
      {onRemove && (
        <button type="button" onClick={onRemove}>
          Remove rule
        </button>
      )}
    </fieldset>
  );
}

function scopeText(policy: Policy): string {
  const { keyId, group, tag, hostname } = policy.scope;
  const parts = [keyId && `key ${keyId}`, group && `group ${group}`, tag && `tag ${tag}`, hostname && `host names ${hostname}`].filter(Boolean);
  return parts.length === 0 ? 'every host' : parts.join(', ');
}
