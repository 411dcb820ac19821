import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { updateFinding, type Client, type FindingUpdate, type Person, type TrackedFinding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { dateInputValue } from '../date-input.js';
import { acceptanceOf, acknowledgementOf, findingActions, MAX_ACCEPT_REASON_LENGTH } from '../finding-lifecycle.js';
import { useChange } from '../use-change.js';
import { PersonField } from './PersonField.js';

/** The form open under a finding's row, if any. */
export type OpenForm = { findingId: string; form: 'acknowledge' | 'accept' } | undefined;

/** What the actions and forms of a finding need: the API, the people to pick from, and what follows a change. */
export interface FindingChangeProps {
  client: Client;
  people: Person[] | undefined;
  /** The finding changed: the list loads again (and the form closes). */
  changed(): void;
  onUnauthorized(): void;
}

/**
 * An operator's actions on a finding, by its state: Acknowledge… and Accept risk… open their form under its row;
 * Reopen (an acknowledged or accepted finding) asks the server at once. A resolved finding has none.
 */
export function FindingActions({
  finding,
  open,
  onOpen,
  change,
}: {
  finding: TrackedFinding;
  open: OpenForm;
  onOpen(form: OpenForm): void;
  change(update: FindingUpdate): void;
}) {
  const actions = findingActions(finding.state);
  if (actions.length === 0) return <span className="muted">—</span>;
  const toggle = (form: 'acknowledge' | 'accept') => onOpen(open?.findingId === finding.id && open.form === form ? undefined : { findingId: finding.id, form });
  const isOpen = (form: 'acknowledge' | 'accept') => open?.findingId === finding.id && open.form === form;
  return (
    <span className="finding-actions" role="group" aria-label={`Actions on ${finding.testId}`}>
      <button type="button" aria-expanded={isOpen('acknowledge')} onClick={() => toggle('acknowledge')}>
        {finding.state === 'acknowledged' ? 'Reassign…' : 'Acknowledge…'}
      </button>
      <button type="button" aria-expanded={isOpen('accept')} onClick={() => toggle('accept')}>
        Accept risk…
      </button>
      {actions.includes('reopen') && (
        <button type="button" onClick={() => change({ state: 'open' })}>
          Reopen
        </button>
      )}
    </span>
  );
}

/** The form open under a finding's row: acknowledging it or accepting its risk. */
export function FindingForm({
  finding,
  form,
  onCancel,
  ...props
}: FindingChangeProps & { finding: TrackedFinding; form: 'acknowledge' | 'accept'; onCancel(): void }) {
  const { problem, change } = useChange(props.changed, props.onUnauthorized);
  const send = (update: FindingUpdate) =>
    change(async () => void (await data(updateFinding({ client: props.client, path: { findingId: finding.id }, body: update }))));
  const Form = form === 'acknowledge' ? AcknowledgeForm : AcceptForm;
  return <Form finding={finding} people={props.people} problem={problem} send={send} onCancel={onCancel} />;
}

interface FormProps {
  finding: TrackedFinding;
  people: Person[] | undefined;
  /** The server's refusal of the last try, as it words it. */
  problem: string | undefined;
  send(update: FindingUpdate): Promise<void>;
  onCancel(): void;
}

/** Taking a finding on: who owns it (none chosen: the signed-in person) and, optionally, by when. */
function AcknowledgeForm({ finding, people, problem, send, onCancel }: FormProps) {
  const id = useId();
  const [owner, setOwner] = useState(finding.ownerUserId ?? '');
  const [due, setDue] = useState(finding.dueAt ? dateInputValue(new Date(finding.dueAt)) : '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(acknowledgementOf({ owner, due }));
  };
  return (
    <FindingFormFrame legend={`Acknowledge ${finding.testId}`} submit="Acknowledge" problem={problem} onSubmit={submit} onCancel={onCancel}>
      <PersonField id={`${id}-owner`} label="Owner" people={people} value={owner} onChange={setOwner} blank="Me" />
      <div className="field">
        <label htmlFor={`${id}-due`}>Due on (optional)</label>
        <input id={`${id}-due`} type="date" value={due} onChange={(event) => setDue(event.target.value)} />
      </div>
    </FindingFormFrame>
  );
}

/** Days an accepted risk runs unless another day is chosen. */
const DEFAULT_ACCEPT_DAYS = 90;

/** Accepting a finding's risk: why, until when, and who approves it (the server may refuse the person asking). */
function AcceptForm({ finding, people, problem, send, onCancel }: FormProps) {
  const id = useId();
  const [today] = useState(() => dateInputValue(new Date()));
  const [reason, setReason] = useState('');
  const [expires, setExpires] = useState(() => dateInputValue(new Date(Date.now() + DEFAULT_ACCEPT_DAYS * 86_400_000)));
  const [approver, setApprover] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const update = acceptanceOf({ reason, expires, approver }, today);
    setRefusal(typeof update === 'string' ? update : undefined);
    if (typeof update !== 'string') void send(update);
  };
  return (
    <FindingFormFrame legend={`Accept the risk of ${finding.testId}`} submit="Accept risk" problem={refusal ?? problem} onSubmit={submit} onCancel={onCancel}>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason</label>
        <textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={MAX_ACCEPT_REASON_LENGTH}
          rows={2}
          required
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-expires`}>Accepted until</label>
        <input id={`${id}-expires`} type="date" value={expires} min={today} onChange={(event) => setExpires(event.target.value)} required />
      </div>
      <PersonField id={`${id}-approver`} label="Approved by" people={people} value={approver} onChange={setApprover} />
    </FindingFormFrame>
  );
}

/** A finding form's frame: legend, fields, submit and cancel (Escape too), and what was refused. */
function FindingFormFrame({
  legend,
  submit,
  problem,
  onSubmit,
  onCancel,
  children,
}: {
  legend: string;
  submit: string;
  problem: string | undefined;
  onSubmit(event: FormEvent): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  };
  return (
    <form className="finding-form" onSubmit={onSubmit} onKeyDown={escape}>
      <fieldset>
        <legend>{legend}</legend>
        {children}
        <div className="field actions">
          <button type="submit">{submit}</button>
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
