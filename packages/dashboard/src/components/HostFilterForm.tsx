import { useState, type FormEvent } from 'react';
import type { Client, LicenseKeyInfo } from '@org/audit-client/sdk';
import { COMPLIANCE_STATES, HOST_STATE_FILTERS, hostsRoute, hrefOf, type FindingKind } from '../route.js';
import { HOST_STATE_FILTER_TEXT } from '../host-state.js';
import { activeFilters, keyIdOf, keyText, type FilterNames, type HostsRoute } from '../host-filters.js';
import { useStateFrom } from '../use-state-from.js';
import { suggestionText } from '../suggestions.js';
import { SuggestInput } from './SuggestInput.js';

/** Choices of the "without a report for" filter, in days; a link may name any other number. */
const STALE_CHOICES = [1, 3, 7, 14, 30, 90];

type Keys = Pick<LicenseKeyInfo, 'id' | 'label' | 'prefix'>[];

/** The filter form's fields, filled from the route (and again when another link changes it), and its submit. */
function useFilterForm(route: HostsRoute, keys: Keys) {
  const fromRoute = () => {
    const key = keys.find((k) => k.id === route.keyId);
    return {
      hostname: route.hostname ?? '',
      key: route.keyId ? (key ? keyText(key) : route.keyId) : '',
      keyId: route.keyId ?? '',
      group: route.group ?? '',
      tag: route.tag ?? '',
      os: route.os ?? '',
      finding: route.finding ?? '',
      findingKind: route.findingKind ?? '',
      stale: route.stale ? String(route.stale) : '',
      compliance: route.compliance ?? '',
      state: route.state ?? '',
    };
  };
  // Filled again when the route's key becomes known (its label replaces its id), not whenever the keys load.
  const keyKnown = route.keyId !== undefined && keys.some((k) => k.id === route.keyId);
  const [form, setForm] = useStateFrom(`${hrefOf(route)} ${keyKnown}`, fromRoute);
  const [problem, setProblem] = useState<string>();
  const field = (name: Exclude<keyof typeof form, 'keyId'>) => ({
    id: `host-filter-${name}`,
    value: form[name],
    // Typing over a key's text drops the key picked: the text is read again on submit.
    onChange: (value: string) => setForm({ ...form, [name]: value, ...(name === 'key' ? { keyId: '' } : {}) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = (value: string) => value.trim() || undefined;
    const keyId = keyIdOf(form.key, form.keyId || undefined, keys);
    if (keyId === null) return setProblem(`No license key is labelled “${form.key.trim()}”.`);
    setProblem(undefined);
    window.location.hash = hrefOf(
      hostsRoute({
        hostname: given(form.hostname),
        keyId,
        group: given(form.group),
        tag: given(form.tag),
        os: given(form.os),
        finding: given(form.finding),
        findingKind: given(form.finding) ? ((form.findingKind || undefined) as FindingKind | undefined) : undefined,
        stale: form.stale ? Number(form.stale) : undefined,
        compliance: COMPLIANCE_STATES.find((state) => state === form.compliance),
        state: HOST_STATE_FILTERS.find((state) => state === form.state),
        // Not in the form: set by links (a refused upload's, a policy's failing hosts), dropped by their chips.
        hostId: route.hostId,
        failingPolicy: route.failingPolicy,
        failingRule: route.failingRule,
        sort: route.sort,
        order: route.order,
        size: route.size,
        at: route.at,
      }),
    );
  };
  return { form, setForm, field, submit, problem };
}

/** A select's props from a form field's: its change event gives the value. */
const native = ({ onChange, ...props }: { id: string; value: string; onChange(value: string): void }) => ({
  ...props,
  onChange: (event: { target: { value: string } }) => onChange(event.target.value),
});

/** A labelled select of the form: each choice's value and text (the value `''`: the filter not set). */
function ChoiceField({ label, choices, ...props }: { label: string; choices: ReadonlyArray<readonly [string, string]> } & Parameters<typeof native>[0]) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{label}</label>
      <select {...native(props)}>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The filters as a form; submitting it moves to the first page of the filtered list (the order is kept). Group, tag,
 * system and key suggest the fleet's values as the user types (the key by its label; its id goes into the URL).
 */
export function HostFilterForm({ route, keys, client, onUnauthorized }: { route: HostsRoute; keys: Keys; client: Client; onUnauthorized(): void }) {
  const { form, setForm, field, submit, problem } = useFilterForm(route, keys);
  const suggest = { client, onUnauthorized };
  // Clearing the filters keeps the order and the page size.
  const unfiltered = hostsRoute({ sort: route.sort, order: route.order, size: route.size, at: route.at });
  const staleChoices = route.stale && !STALE_CHOICES.includes(route.stale) ? [...STALE_CHOICES, route.stale].sort((a, b) => a - b) : STALE_CHOICES;
  return (
    <form className="filter-grid" role="search" aria-label="Filter hosts" onSubmit={submit}>
      <div className="field">
        <label htmlFor="host-filter-hostname">Host name contains</label>
        <input {...native(field('hostname'))} />
      </div>
      <div className="field">
        <label htmlFor="host-filter-group">Group</label>
        <SuggestInput {...field('group')} {...suggest} field="group" placeholder="e.g. webservers" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-tag">Tag</label>
        <SuggestInput {...field('tag')} {...suggest} field="tag" placeholder="e.g. production" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-os">Operating system</label>
        <SuggestInput {...field('os')} {...suggest} field="os" placeholder="exact; type for choices" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-finding">Finding (test id)</label>
        <input {...native(field('finding'))} className="mono" placeholder="e.g. PKGS-7392" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-findingKind">Finding is a</label>
        <select {...native(field('findingKind'))}>
          <option value="">either kind</option>
          <option value="warning">warning</option>
          <option value="suggestion">suggestion</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="host-filter-key">License key</label>
        <SuggestInput
          {...field('key')}
          {...suggest}
          field="key"
          placeholder="label, e.g. demo"
          onPick={(key) => setForm({ ...form, key: suggestionText('key', key), keyId: key.value })}
        />
        {problem && (
          <span className="error" role="alert">
            {problem}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="host-filter-stale">Without a report for</label>
        <select {...native(field('stale'))}>
          <option value="">any time</option>
          {staleChoices.map((days) => (
            <option key={days} value={String(days)}>
              {days === 1 ? 'a day or more' : `${days} days or more`}
            </option>
          ))}
        </select>
      </div>
      <ChoiceField label="Compliance" {...field('compliance')} choices={[['', 'any'], ...COMPLIANCE_STATES.map((state) => [state, state] as const)]} />
      <ChoiceField
        label="State"
        {...field('state')}
        choices={[['', HOST_STATE_FILTER_TEXT.current], ...HOST_STATE_FILTERS.map((state) => [state, HOST_STATE_FILTER_TEXT[state]] as const)]}
      />
      <div className="field actions">
        <button type="submit">Search</button>
        {hrefOf(route) !== hrefOf(unfiltered) && <a href={hrefOf(unfiltered)}>Clear filters</a>}
      </div>
    </form>
  );
}

/** The filters in force, each with a link that drops it (a key named by its label, a policy by its name). */
export function ActiveFilters({ route, names }: { route: HostsRoute; names: FilterNames }) {
  const active = activeFilters(route, names);
  if (active.length === 0) return null;
  return (
    <ul className="chips active-filters" aria-label="Filters in force">
      {active.map(([name, text]) => (
        <li key={name}>
          <span className="chip chip-filter">
            {text}
            <a
              href={hrefOf({ ...route, [name]: undefined, ...(name === 'finding' ? { findingKind: undefined } : {}), offset: 0 })}
              aria-label={`Remove the filter ${text}`}
            >
              ×
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}
