import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { LicenseKeyInfo } from '@org/audit-client/sdk';
import { dateInputValue, startOfLocalDay } from '../date-input.js';
import { useFocusKept } from '../focus.js';

/**
 * A key's expiry, changed in place: an "Expiry…" button opens a small form with the day the key stops working
 * (local time, from the start of that day; a past day stops it at once) or "No expiry" (choosing a day unticks it).
 * Focus goes to the day when it opens and back to the button when it closes (Save, Cancel or Escape).
 */
export function KeyExpiry({ keyInfo, onSave }: { keyInfo: LicenseKeyInfo; onSave(expiresAt: string | null): Promise<void> | void }) {
  const [open, setOpen] = useState(false);
  // Saving reloads the list, which shows its rows afresh: the new row's button takes focus back.
  const { ref: opener, follow } = useFocusKept<HTMLButtonElement>(`key expiry ${keyInfo.id}`);
  const close = () => {
    setOpen(false);
    setTimeout(() => opener.current?.focus());
  };
  const name = keyInfo.label ?? keyInfo.id;
  return (
    <div className="key-expiry">
      <button type="button" ref={opener} aria-expanded={open} onClick={() => setOpen(!open)} aria-label={`Expiry of ${name}…`}>
        Expiry…
      </button>
      {open && (
        <ExpiryForm
          name={name}
          expiresAt={keyInfo.expiresAt}
          onCancel={close}
          onSave={async (expiresAt) => {
            follow(window.location.hash);
            await onSave(expiresAt);
            close();
          }}
        />
      )}
    </div>
  );
}

function ExpiryForm({
  name,
  expiresAt,
  onSave,
  onCancel,
}: {
  name: string;
  expiresAt: string | null;
  onSave(expiresAt: string | null): Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const [day, setDay] = useState(expiresAt ? dateInputValue(new Date(expiresAt)) : '');
  const [never, setNever] = useState(expiresAt === null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = (event: FormEvent) => {
    event.preventDefault();
    void onSave(never ? null : startOfLocalDay(day));
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  };
  return (
    <form className="expiry-form" onSubmit={save} onKeyDown={escape} aria-label={`Expiry of ${name}`}>
      <label htmlFor={`${id}-day`}>Stops working on (local time; a past day: at once)</label>
      <input
        id={`${id}-day`}
        ref={first}
        type="date"
        required={!never}
        value={day}
        onChange={(event) => {
          setDay(event.target.value);
          if (event.target.value) setNever(false); // a day chosen is an expiry wanted
        }}
      />
      <label className="inline-choice">
        <input type="checkbox" checked={never} onChange={(event) => setNever(event.target.checked)} /> No expiry
      </label>
      <div className="actions">
        <button type="submit">Save expiry</button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
