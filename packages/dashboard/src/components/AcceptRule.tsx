import { useId, useState } from 'react';
import { createWaivers, type Client, type HostSelection, type Policy } from '@org/audit-client/sdk';
import { ApiError, data } from '../api.js';
import { waiversCreatedMessage } from '../host-selection.js';
import { useWaiverMaxDays } from '../use-waiver-max-days.js';
import { WaiverForm, type WaiverFormValues } from './WaiverForm.js';

export interface AcceptRuleProps {
  client: Client;
  policies: Policy[];
  /** The policy and rule chosen first (the list's failing policy and rule filters), when they are known. */
  initial: { policyId?: string; ruleId?: string };
  /** Hosts selected, for the form's wording. */
  count: number;
  /** The hosts the waivers are for, asked when they are saved. */
  hosts(): HostSelection;
  onCancel(): void;
  /** Saved: the message announcing it. */
  onDone(message: string): void;
  onUnauthorized(): void;
}

/**
 * Accepting a failing rule for the hosts selected: which policy and rule, then the waiver form (why, until when),
 * saved as one waiver per host by `createWaivers`.
 */
export function AcceptRule({ client, policies, initial, count, hosts, onCancel, onDone, onUnauthorized }: AcceptRuleProps) {
  const id = useId();
  const maxDays = useWaiverMaxDays(client, onUnauthorized);
  const [policyId, setPolicyId] = useState(() => policies.find((p) => p.id === initial.policyId)?.id ?? policies[0]?.id ?? '');
  const policy = policies.find((p) => p.id === policyId);
  const [ruleId, setRuleId] = useState(() => policy?.rules.find((r) => r.id === initial.ruleId)?.id ?? policy?.rules[0]?.id ?? '');
  const [chosen, setChosen] = useState(false);
  if (policies.length === 0) return <p className="notice">No policy to accept a rule of: add one on the Policies page first.</p>;

  const save = async ({ reason, expiresAt }: WaiverFormValues) => {
    try {
      const result = await data(createWaivers({ client, body: { policyId, ruleId, reason, expiresAt, hosts: hosts() } }));
      onDone(waiversCreatedMessage(result.created, result.hosts));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      throw error;
    }
  };
  return (
    <div className="accept-rule">
      <fieldset className="rule-choice" disabled={chosen}>
        <legend>Rule to accept for the {count === 1 ? 'selected host' : `${count.toLocaleString('en')} selected hosts`}</legend>
        <div className="field">
          <label htmlFor={`${id}-policy`}>Policy</label>
          <select
            id={`${id}-policy`}
            value={policyId}
            onChange={(event) => {
              setPolicyId(event.target.value);
              setRuleId(policies.find((p) => p.id === event.target.value)?.rules[0]?.id ?? '');
            }}
          >
            {policies.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-rule`}>Rule</label>
          <select id={`${id}-rule`} value={ruleId} onChange={(event) => setRuleId(event.target.value)}>
            {policy?.rules.map((rule) => (
              <option key={rule.id} value={rule.id}>
                {rule.id}
              </option>
            ))}
          </select>
        </div>
        <div className="field actions">
          <button type="button" disabled={!ruleId || maxDays === undefined} onClick={() => setChosen(true)}>
            Continue
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
      {chosen && policy && maxDays !== undefined && (
        <WaiverForm
          subject={`${policy.name} / ${ruleId}`}
          scopes={['host']}
          hostLabel={count === 1 ? 'the selected host' : `the ${count.toLocaleString('en')} selected hosts`}
          maxDays={maxDays}
          onSubmit={save}
          onCancel={onCancel}
        />
      )}
    </div>
  );
}
