import { useState } from 'react';
import { changeHostStates, type Client, type HostSelection } from '@org/audit-client/sdk';
import { ApiError, data } from '../api.js';
import { bulkStateActions, statesChangedMessage, type StateAction } from '../host-state.js';
import { useCan } from '../permissions.js';
import type { HostStateFilter } from '../route.js';

export interface BulkStateActionsProps {
  client: Client;
  /** The list's State filter: which actions can change any of its hosts. */
  state: HostStateFilter | undefined;
  /** Hosts selected, for the confirmation's wording. */
  count: number;
  /** The hosts selected, asked when the action runs. */
  hosts(): HostSelection;
  /** Done: the message announcing how many changed. */
  onDone(message: string): void;
  onUnauthorized(): void;
}

const BUTTON_TEXT: Record<StateAction, string> = { decommission: 'Decommission…', reactivate: 'Reactivate…' };

/**
 * Decommissioning or reactivating the hosts selected (`changeHostStates`), each after a one-click confirmation that
 * says how many hosts it changes; offered to roles that may, and only where the list can hold hosts it would change.
 */
export function BulkStateActions({ client, state, count, hosts, onDone, onUnauthorized }: BulkStateActionsProps) {
  const mayChange = useCan('changeHostStates');
  const [confirming, setConfirming] = useState<StateAction>();
  const [problem, setProblem] = useState<string>();
  if (!mayChange) return null;
  const run = async (action: StateAction) => {
    setProblem(undefined);
    try {
      const result = await data(changeHostStates({ client, body: { action, hosts: hosts() } }));
      setConfirming(undefined);
      onDone(statesChangedMessage(action, result.changed, result.hosts));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const subject = count === 1 ? 'the selected host' : `the ${count.toLocaleString('en')} selected hosts`;
  return (
    <>
      {bulkStateActions(state).map((action) =>
        confirming === action ? (
          <span key={action} role="group" aria-label={`${action === 'decommission' ? 'Decommission' : 'Reactivate'} ${subject}?`} className="confirm">
            <span>
              {action === 'decommission' ? `Decommission ${subject}? They leave the fleet figures until they report again.` : `Reactivate ${subject}?`}
            </span>
            <button type="button" className={action === 'decommission' ? 'danger' : undefined} autoFocus onClick={() => void run(action)}>
              {action === 'decommission' ? 'Decommission' : 'Reactivate'}
            </button>
            <button type="button" onClick={() => setConfirming(undefined)}>
              Keep
            </button>
          </span>
        ) : (
          <button key={action} type="button" onClick={() => setConfirming(action)}>
            {BUTTON_TEXT[action]}
          </button>
        ),
      )}
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
