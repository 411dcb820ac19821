import { useId, useState, type FormEvent } from 'react';
import type { Webhook, WebhookEventType, WebhookInput } from '@org/audit-client/sdk';
import { EVENT_MEANINGS, EVENT_TYPES } from '../webhook-events.js';

/** What a new subscription starts with: the contract's defaults. */
const NEW_WEBHOOK: WebhookInput = {
  url: '',
  description: null,
  events: [],
  format: 'standard',
  enabled: true,
  staleDays: 7,
  regressionThreshold: 5,
  maxDeliveriesPerMinute: 60,
};

/**
 * The settings of a subscription, new or edited: every field of the contract's `WebhookInput`, one checkbox per event
 * type. `problem` (the server's refusal) is shown under the button that sent it.
 */
export function WebhookForm({
  initial,
  submitLabel,
  problem,
  onSubmit,
}: {
  initial?: Webhook;
  submitLabel: string;
  problem?: string;
  onSubmit(input: WebhookInput): void;
}) {
  const [input, setInput] = useState<WebhookInput>(() => (initial ? toInput(initial) : NEW_WEBHOOK));
  const id = useId();
  const set = (change: Partial<WebhookInput>) => setInput({ ...input, ...change });
  const toggle = (event: WebhookEventType, on: boolean) => set({ events: EVENT_TYPES.filter((type) => (type === event ? on : input.events.includes(type))) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ ...input, url: input.url.trim(), description: input.description?.trim() || null });
  };
  return (
    <form className="webhook-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-url`}>Receiver URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={input.url}
          onChange={(event) => set({ url: event.target.value })}
          placeholder="https://hooks.example.org/audit"
          maxLength={2000}
          required
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <input id={`${id}-description`} value={input.description ?? ''} onChange={(event) => set({ description: event.target.value })} maxLength={500} />
      </div>
      <EventChoices events={input.events} onToggle={toggle} />
      <DeliverySettings id={id} input={input} onChange={set} />
      <button type="submit">{submitLabel}</button>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** How a subscription's events are delivered: the format, the thresholds of its events, its cap, whether it is on. */
function DeliverySettings({ id, input, onChange }: { id: string; input: WebhookInput; onChange(change: Partial<WebhookInput>): void }) {
  return (
    <div className="filter-grid">
      <div className="field">
        <label htmlFor={`${id}-format`}>Format</label>
        <select id={`${id}-format`} value={input.format} onChange={(event) => onChange({ format: event.target.value === 'slack' ? 'slack' : 'standard' })}>
          <option value="standard">standard (JSON)</option>
          <option value="slack">slack (message)</option>
        </select>
      </div>
      <NumberField
        id={`${id}-stale`}
        label="Stale after (days, for host.stale)"
        max={365}
        value={input.staleDays}
        onChange={(staleDays) => onChange({ staleDays })}
      />
      <NumberField
        id={`${id}-threshold`}
        label="Regression threshold (points, for host.regressed)"
        max={100}
        value={input.regressionThreshold}
        onChange={(regressionThreshold) => onChange({ regressionThreshold })}
      />
      <NumberField
        id={`${id}-cap`}
        label="Most deliveries a minute (more are folded into one summary)"
        max={10000}
        value={input.maxDeliveriesPerMinute}
        onChange={(maxDeliveriesPerMinute) => onChange({ maxDeliveriesPerMinute })}
      />
      <label className="checkbox">
        <input type="checkbox" checked={input.enabled} onChange={(event) => onChange({ enabled: event.target.checked })} /> Enabled
      </label>
    </div>
  );
}

/** One checkbox per event type, with what it means. */
function EventChoices({ events, onToggle }: { events: WebhookEventType[]; onToggle(event: WebhookEventType, on: boolean): void }) {
  return (
    <fieldset className="events">
      <legend>Events</legend>
      {EVENT_TYPES.map((type) => (
        <label key={type}>
          <input type="checkbox" checked={events.includes(type)} onChange={(event) => onToggle(type, event.target.checked)} />
          <code>{type}</code> <span className="muted">{EVENT_MEANINGS[type]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A required whole-number setting from 1 to `max`. */
function NumberField({ id, label, max, value, onChange }: { id: string; label: string; max: number; value?: number; onChange(value: number): void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" min={1} max={max} value={value} onChange={(event) => onChange(Number(event.target.value))} required />
    </div>
  );
}

/** The settings of a saved subscription, as the form edits them. */
function toInput(webhook: Webhook): WebhookInput {
  const { url, description, events, format, enabled, staleDays, regressionThreshold, maxDeliveriesPerMinute } = webhook;
  return { url, description, events, format, enabled, staleDays, regressionThreshold, maxDeliveriesPerMinute };
}
