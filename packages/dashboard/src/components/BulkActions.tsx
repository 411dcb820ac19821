import { useRef, useState } from 'react';
import { exportHosts, type Client, type HostSelection, type Policy } from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { hostFilterValues, hostsFilterQuery, type HostsRoute } from '../host-filters.js';
import { MAX_SELECTED_IDS, NO_SELECTION, selectedCount, selectedHosts, type Selection } from '../host-selection.js';
import { AcceptRule } from './AcceptRule.js';
import { BulkStateActions } from './BulkStateActions.js';
import { ExportButtons } from './ExportButtons.js';

export interface BulkActionsProps {
  client: Client;
  route: HostsRoute;
  /** Hosts matching the list's filters, all pages. */
  matching: number;
  selection: Selection;
  onSelect(selection: Selection): void;
  policies: Policy[];
  /** An action changed hosts: the message to announce; the list loads again. */
  onDone(message: string): void;
  onUnauthorized(): void;
}

/**
 * The bar over the hosts list once hosts are selected: how many, "select all matching the filters", and what can be
 * done with them (each action a button of `.bulk-actions`; more can join them there).
 */
export function BulkActions({ client, route, matching, selection, onSelect, policies, onDone, onUnauthorized }: BulkActionsProps) {
  const [accepting, setAccepting] = useState(false);
  const acceptButton = useRef<HTMLButtonElement>(null);
  const mayAccept = useCan('createWaivers');
  const count = selectedCount(selection, matching);
  if (count === 0) return null;
  const tooMany = !selection.allMatching && selection.ids.length > MAX_SELECTED_IDS;
  // Asked when the action runs: "stale" counts back from then.
  const hosts = (): HostSelection => selectedHosts(selection, hostFilterValues(route, Date.now()));
  const close = () => {
    setAccepting(false);
    // The form's own focus return finds its opener gone (the rule's choice): the button that opened it takes focus.
    setTimeout(() => acceptButton.current?.focus());
  };
  return (
    <section className="bulk" aria-label="Selected hosts">
      <div className="bulk-bar">
        <strong>{count.toLocaleString('en')} selected</strong>
        {!selection.allMatching && matching > count && (
          <button type="button" className="link" onClick={() => onSelect({ allMatching: true })}>
            Select all {matching.toLocaleString('en')} matching the filters
          </button>
        )}
        <button type="button" className="link" onClick={() => onSelect(NO_SELECTION)}>
          Clear selection
        </button>
        {tooMany ? (
          <span className="error">At most {MAX_SELECTED_IDS} hosts one by one: select all matching the filters instead.</span>
        ) : (
          <div className="bulk-actions">
            <ExportButtons
              label="Export them"
              name="hosts"
              request={(format) => {
                const selected = hosts();
                const query = selected.ids ? { ids: selected.ids, sort: route.sort, order: route.order } : hostsFilterQuery(route, Date.now());
                return exportHosts({ client, query: { format, ...query }, parseAs: 'stream' });
              }}
              onUnauthorized={onUnauthorized}
            />
            {mayAccept && (
              <button type="button" ref={acceptButton} aria-expanded={accepting} onClick={() => setAccepting(!accepting)}>
                Accept a rule…
              </button>
            )}
            <BulkStateActions client={client} state={route.state} count={count} hosts={hosts} onDone={onDone} onUnauthorized={onUnauthorized} />
          </div>
        )}
      </div>
      {mayAccept && accepting && !tooMany && (
        <AcceptRule
          client={client}
          policies={policies}
          initial={{ policyId: route.failingPolicy, ruleId: route.failingRule }}
          count={count}
          hosts={hosts}
          onCancel={close}
          onDone={(message) => {
            setAccepting(false);
            onDone(message);
          }}
          onUnauthorized={onUnauthorized}
        />
      )}
    </section>
  );
}
