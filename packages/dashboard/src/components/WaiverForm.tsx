import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { startOfLocalDay } from '../date-input.js';
import { defaultExpiry, expiryBounds, expiryProblem, MAX_REASON_LENGTH, type WaiverFormValues, type WaiverScope } from '../waiver-form.js';

export type { WaiverFormValues, WaiverScope } from '../waiver-form.js';
export { waiverInputOf } from '../waiver-form.js';

export interface WaiverFormProps {
  /** What is being accepted, shown as the form's legend, e.g. "Baseline / firewall-active". */
  subject: string;
  /** Scopes offered, in this order, the first preselected; `host` is labelled with hostLabel (e.g. "web-01" or "the 421 selected hosts"). */
  scopes: WaiverScope[];
  hostLabel?: string;
  /** The groups offered for the group scope (the host's groups). */
  groups?: string[];
  /** The server's maximum (`WaiverList.maxDays`). */
  maxDays: number;
  /** Saves; a thrown Error's message is shown in the form (role=alert) and the form stays open. */
  onSubmit(values: WaiverFormValues): Promise<void>;
  onCancel(): void;
}

/**
 * The form that accepts a failing rule for a while (a waiver): why, until when, and for whom. Host names and groups are
 * shown as text only.
 *
 * Focus: when the form appears, its reason field takes focus. When it goes away (cancelled, Escape, or saved) while
 * focus was inside it, focus returns to the control that had it when the form opened (the caller's "Accept…" button),
 * if that control is still on the page; callers need do nothing but keep that control rendered.
 */
export function WaiverForm({ subject, scopes, hostLabel, groups = [], maxDays, onSubmit, onCancel }: WaiverFormProps) {
  const id = useId();
  const [now] = useState(() => new Date());
  const [reason, setReason] = useState('');
  const [day, setDay] = useState(() => defaultExpiry(now, maxDays));
  const [scope, setScope] = useState<WaiverScope>(scopes[0] ?? 'host');
  const [group, setGroup] = useState(groups[0] ?? '');
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const reasonRef = useReturningFocus();
  const bounds = expiryBounds(now, maxDays);
  const dayProblem = expiryProblem(day, now, maxDays);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refusal = dayProblem ?? (reason.trim() ? undefined : 'Say why this may fail.') ?? (scope === 'group' && !group ? 'Choose the group.' : undefined);
    if (refusal) return setProblem(refusal);
    setSaving(true);
    setProblem(undefined);
    try {
      await onSubmit({ reason: reason.trim(), expiresAt: startOfLocalDay(day), scope, ...(scope === 'group' ? { group } : {}) });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  };

  return (
    <form className="waiver-form" onSubmit={(event) => void submit(event)} onKeyDown={escape} aria-labelledby={`${id}-legend`}>
      <fieldset>
        <legend id={`${id}-legend`}>Accept: {subject}</legend>
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <textarea
            id={`${id}-reason`}
            ref={reasonRef}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={MAX_REASON_LENGTH}
            rows={3}
            required
          />
        </div>
        <ExpiryField id={id} day={day} bounds={bounds} problem={dayProblem} maxDays={maxDays} onChange={setDay} />
        <ScopeChoice id={id} scopes={scopes} scope={scope} hostLabel={hostLabel} onChange={setScope} />
        {scope === 'group' && <GroupChoice id={id} groups={groups} group={group} onChange={setGroup} />}
        <div className="field actions">
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Accept'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </form>
  );
}

/** The day the waiver ends, within the server's maximum (the native date picker, keyboard usable). */
function ExpiryField({
  id,
  day,
  bounds,
  problem,
  maxDays,
  onChange,
}: {
  id: string;
  day: string;
  bounds: { min: string; max: string };
  problem?: string;
  maxDays: number;
  onChange(day: string): void;
}) {
  return (
    <div className="field">
      <label htmlFor={`${id}-expires`}>Expires on</label>
      <input
        id={`${id}-expires`}
        type="date"
        value={day}
        min={bounds.min}
        max={bounds.max}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-expires-hint`}
        aria-invalid={problem ? true : undefined}
        required
      />
      <span id={`${id}-expires-hint`} className={problem ? 'error' : 'hint'}>
        {problem ?? `At most ${maxDays} days (until ${bounds.max}).`}
      </span>
    </div>
  );
}

/** The radio buttons of the scopes offered. */
function ScopeChoice({
  id,
  scopes,
  scope,
  hostLabel,
  onChange,
}: {
  id: string;
  scopes: WaiverScope[];
  scope: WaiverScope;
  hostLabel?: string;
  onChange(scope: WaiverScope): void;
}) {
  const labels: Record<WaiverScope, string> = { host: `Only ${hostLabel ?? 'this host'}`, group: 'A group of hosts', fleet: 'Every host the policy covers' };
  return (
    <fieldset className="scopes">
      <legend>For</legend>
      {scopes.map((offered) => (
        <label key={offered}>
          <input type="radio" name={`${id}-scope`} value={offered} checked={scope === offered} onChange={() => onChange(offered)} /> {labels[offered]}
        </label>
      ))}
    </fieldset>
  );
}

/** The groups offered for the group scope. */
function GroupChoice({ id, groups, group, onChange }: { id: string; groups: string[]; group: string; onChange(group: string): void }) {
  if (groups.length === 0) return <p className="error">This host names no group.</p>;
  return (
    <div className="field">
      <label htmlFor={`${id}-group`}>Group</label>
      <select id={`${id}-group`} value={group} onChange={(event) => onChange(event.target.value)}>
        {groups.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A ref for the field that takes focus when the form opens; when the form goes away with focus inside it (or lost to
 * the page), focus goes back to the control that had it before.
 */
function useReturningFocus() {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const form = ref.current?.form ?? null;
    ref.current?.focus();
    return () => {
      const hadFocus = form?.contains(document.activeElement) || document.activeElement === document.body || document.activeElement === null;
      if (!hadFocus || !opener) return;
      // The form is removed in this same commit; focus the opener once it has gone.
      setTimeout(() => {
        if (opener.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus();
      });
    };
  }, []);
  return ref;
}
