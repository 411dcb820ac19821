import { useId, useState, type FormEvent } from 'react';
import { listLicenseKeys, previewPolicy, type Client, type Policy, type PolicyInput, type PolicyPreview, type RuleError } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { useLoad } from '../use-load.js';
import { Table, type Column } from './Table.js';

/** What a save or a preview answered, as the generated SDK gives it (the problem of a 400 names each rule's error). */
export interface SdkAnswer {
  error?: unknown;
  response?: Response;
}

/** A rule as the form edits it. */
interface DraftRule {
  id: string;
  description: string;
  /** The framework controls it is evidence for, `FRAMEWORK:CONTROL-ID`, separated by spaces. */
  controls: string;
  expression: string;
}

/** Every field of the form, as typed. */
interface Draft {
  name: string;
  description: string;
  group: string;
  tag: string;
  keyId: string;
  hostname: string;
  rules: DraftRule[];
}

export interface PolicyFormProps {
  client: Client;
  onUnauthorized(): void;
  /** The policy edited; none: a new policy. */
  initial?: Policy;
  title: string;
  submitLabel: string;
  /** Saves the policy (createPolicy or updatePolicy); a 400's rule errors are shown at their rules. */
  save(input: PolicyInput): Promise<SdkAnswer>;
  onSaved(): void;
  onCancel?(): void;
}

const NEW_RULE: DraftRule = { id: 'hardening-index', description: '', controls: '', expression: 'summary.hardeningIndex >= 60' };

function draftOf(policy?: Policy): Draft {
  const scope = policy?.scope ?? {};
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    group: scope.group ?? '',
    tag: scope.tag ?? '',
    keyId: scope.keyId ?? '',
    hostname: scope.hostname ?? '',
    rules: policy?.rules.map((rule) => ({
      id: rule.id,
      description: rule.description ?? '',
      controls: (rule.controls ?? []).join(' '),
      expression: rule.expression,
    })) ?? [NEW_RULE],
  };
}

/** The input the draft asks for; an empty field is no condition (or no description). */
function inputOf(draft: Draft, enabled: boolean): PolicyInput {
  const given = (text: string) => text.trim() || null;
  return {
    name: draft.name.trim(),
    description: given(draft.description),
    enabled,
    scope: { keyId: draft.keyId || null, group: given(draft.group), tag: given(draft.tag), hostname: given(draft.hostname) },
    rules: draft.rules.map((rule) => {
      const controls = rule.controls.split(/\s+/).filter(Boolean);
      return { id: rule.id.trim(), description: given(rule.description), ...(controls.length > 0 ? { controls } : {}), expression: rule.expression };
    }),
  };
}

/** The problem of a failed answer: its detail and the rules' errors. */
function problemOf({ error, response }: SdkAnswer): { detail: string; errors: RuleError[] } {
  const body = error as { detail?: string; errors?: RuleError[] } | undefined;
  return { detail: body?.detail ?? `The server answered ${response?.status ?? 'nothing'}`, errors: body?.errors ?? [] };
}

/**
 * The form of a policy, new or edited: name, description, rules (id, description, CEL expression; added and removed),
 * and scope (group, tag, license key, host name pattern). "Preview" asks the server which hosts the policy would
 * cover and how many fail each rule, before anything is saved; a rule that does not check shows its error under it,
 * at its position, from the preview as from saving.
 */
export function PolicyForm({ client, onUnauthorized, initial, title, submitLabel, save, onSaved, onCancel }: PolicyFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [errors, setErrors] = useState<RuleError[]>([]);
  const [problem, setProblem] = useState<string>();
  const [preview, setPreview] = useState<{ of: string; value: PolicyPreview }>();
  const [busy, setBusy] = useState<'preview' | 'save'>();
  const input = inputOf(draft, initial?.enabled ?? true);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });

  /** Sends the draft; a 401 signs out, a 400 shows its problem (and rule errors), anything else resolves with the answer. */
  const send = async (kind: 'preview' | 'save', request: () => Promise<SdkAnswer & { data?: unknown }>) => {
    setBusy(kind);
    setProblem(undefined);
    setErrors([]);
    try {
      const answer = await request();
      if (answer.response?.status === 401) return onUnauthorized();
      if (answer.response?.ok) return answer;
      const { detail, errors: ruleErrors } = problemOf(answer);
      setErrors(ruleErrors);
      setProblem(detail);
    } finally {
      setBusy(undefined);
    }
  };
  const runPreview = async () => {
    // The name is no part of a preview; the contract still asks for one.
    const answer = await send('preview', () => previewPolicy({ client, body: { ...input, name: input.name || 'Preview' } }));
    if (answer?.data) setPreview({ of: JSON.stringify(input), value: answer.data as PolicyPreview });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await send('save', () => save(input))) onSaved();
  };

  return (
    <form className="policy-form" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="filter-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} value={draft.name} onChange={(event) => set({ name: event.target.value })} required maxLength={100} />
        </div>
        <div className="field wide">
          <label htmlFor={`${id}-description`}>Description</label>
          <input id={`${id}-description`} value={draft.description} onChange={(event) => set({ description: event.target.value })} maxLength={1000} />
        </div>
      </div>
      <ScopeFields id={id} draft={draft} client={client} onUnauthorized={onUnauthorized} onChange={set} />
      {draft.rules.map((rule, index) => (
        <RuleFields
          key={index}
          id={`${id}-rule-${index}`}
          rule={rule}
          index={index}
          errors={errors.filter((error) => error.ruleId === rule.id.trim())}
          onChange={(change) => set({ rules: draft.rules.map((old, i) => (i === index ? { ...old, ...change } : old)) })}
          onRemove={draft.rules.length > 1 ? () => set({ rules: draft.rules.filter((_, i) => i !== index) }) : undefined}
        />
      ))}
      <FormActions
        busy={busy}
        submitLabel={submitLabel}
        onAddRule={() => set({ rules: [...draft.rules, { id: `rule-${draft.rules.length + 1}`, description: '', controls: '', expression: '' }] })}
        onPreview={() => void runPreview()}
        onCancel={onCancel}
      />
      {problem && errors.length === 0 && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {preview && <PreviewResult preview={preview.value} stale={preview.of !== JSON.stringify(input)} />}
    </form>
  );
}

/** The form's buttons: add a rule, preview, save (each saying while it is under way) and, when editing, cancel. */
function FormActions({
  busy,
  submitLabel,
  onAddRule,
  onPreview,
  onCancel,
}: {
  busy?: 'preview' | 'save';
  submitLabel: string;
  onAddRule(): void;
  onPreview(): void;
  onCancel?(): void;
}) {
  return (
    <div className="actions">
      <button type="button" onClick={onAddRule}>
        Add a rule
      </button>
      <button type="button" onClick={onPreview} disabled={busy !== undefined}>
        {busy === 'preview' ? 'Previewing…' : 'Preview'}
      </button>
      <button type="submit" disabled={busy !== undefined}>
        {busy === 'save' ? 'Saving…' : submitLabel}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}

/** The scope: group, tag, license key (by its label) and host name pattern; an empty one is no condition. */
function ScopeFields({
  id,
  draft,
  client,
  onUnauthorized,
  onChange,
}: {
  id: string;
  draft: Draft;
  client: Client;
  onUnauthorized(): void;
  onChange(change: Partial<Draft>): void;
}) {
  const [keys] = useLoad(async () => (await data(listLicenseKeys({ client }))).items, 'policy-form-keys', onUnauthorized);
  const known = keys.state === 'ready' ? keys.value : [];
  return (
    <fieldset className="policy-scope">
      <legend>Hosts it covers (every condition given must hold; none: every host)</legend>
      <div className="filter-grid">
        <div className="field">
          <label htmlFor={`${id}-group`}>Group</label>
          <input id={`${id}-group`} value={draft.group} onChange={(event) => onChange({ group: event.target.value })} placeholder="any group" maxLength={255} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <input id={`${id}-tag`} value={draft.tag} onChange={(event) => onChange({ tag: event.target.value })} placeholder="any tag" maxLength={255} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-key`}>License key</label>
          <select id={`${id}-key`} value={draft.keyId} onChange={(event) => onChange({ keyId: event.target.value })}>
            <option value="">any key</option>
            {draft.keyId && !known.some((key) => key.id === draft.keyId) && <option value={draft.keyId}>{draft.keyId}</option>}
            {known.map((key) => (
              <option key={key.id} value={key.id}>
                {key.label ?? '(no label)'} · {key.prefix}…
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-hostname`}>Host name pattern</label>
          <input
            id={`${id}-hostname`}
            value={draft.hostname}
            onChange={(event) => onChange({ hostname: event.target.value })}
            placeholder="e.g. web-*"
            maxLength={255}
            aria-describedby={`${id}-hostname-hint`}
          />
        </div>
      </div>
      <p id={`${id}-hostname-hint`} className="hint">
        In the host name pattern, * stands for any characters; case does not matter.
      </p>
    </fieldset>
  );
}

const PREVIEW_COLUMNS: Column<PolicyPreview['rules'][number]>[] = [
  { header: 'Rule', cell: (rule) => <code>{rule.ruleId}</code> },
  { header: 'Passing', className: 'number', cell: (rule) => rule.passing },
  { header: 'Failing', className: 'number', cell: (rule) => rule.failing },
  { header: 'Errors', className: 'number', cell: (rule) => rule.errors },
];

/** What the preview found: the hosts covered, those evaluated and failing, and each rule's counts. */
function PreviewResult({ preview, stale }: { preview: PolicyPreview; stale: boolean }) {
  const { hostsInScope, hostsWithReports, evaluatedHosts, failingHosts } = preview;
  return (
    <section className="policy-preview" aria-label="Preview" role="status">
      <p>
        <strong>
          Covers {hostsInScope.toLocaleString('en')} {hostsInScope === 1 ? 'host' : 'hosts'}
        </strong>{' '}
        (of {hostsWithReports.toLocaleString('en')} with a report); of the {evaluatedHosts.toLocaleString('en')} evaluated, {failingHosts.toLocaleString('en')}{' '}
        fail.
        {evaluatedHosts < hostsInScope && <span className="sub"> The most recently seen hosts were evaluated.</span>}
      </p>
      {stale && <p className="hint">The form changed since this preview: preview again to see its effect.</p>}
      <Table caption="Hosts each rule would pass and fail" columns={PREVIEW_COLUMNS} rows={preview.rules} rowKey={(rule) => rule.ruleId} />
    </section>
  );
}

/** One rule: its id, description and expression, the server's errors about it, and its removal (none for the last one). */
function RuleFields({
  id,
  rule,
  index,
  errors,
  onChange,
  onRemove,
}: {
  id: string;
  rule: DraftRule;
  index: number;
  errors: RuleError[];
  onChange(change: Partial<DraftRule>): void;
  onRemove?(): void;
}) {
  return (
    <fieldset className="rule">
      <legend>Rule {index + 1}</legend>
      <label htmlFor={`${id}-id`}>Rule id</label>
      <input id={`${id}-id`} value={rule.id} onChange={(event) => onChange({ id: event.target.value })} pattern="[a-z0-9][a-z0-9\-]{0,63}" required />
      <label htmlFor={`${id}-description`}>Description</label>
      <input id={`${id}-description`} value={rule.description} onChange={(event) => onChange({ description: event.target.value })} maxLength={1000} />
      <label htmlFor={`${id}-controls`}>Controls</label>
      <input
        id={`${id}-controls`}
        value={rule.controls}
        onChange={(event) => onChange({ controls: event.target.value })}
        placeholder="CIS:5.2.10 ISO27001:A.8.8 (optional)"
        spellCheck={false}
      />
      <label htmlFor={`${id}-expression`}>Expression</label>
      <textarea
        id={`${id}-expression`}
        className="mono"
        value={rule.expression}
        onChange={(event) => onChange({ expression: event.target.value })}
        rows={2}
        required
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? `${id}-error` : undefined}
      />
      {errors.map((error, i) => (
        <div key={i} id={i === 0 ? `${id}-error` : undefined} className="rule-error" role="alert">
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
