import { useState, type FormEvent, type ReactNode } from 'react';
import { createEnrollment, listEnrollments, listLicenseKeys, revokeEnrollment, type Client, type Enrollment, type NewEnrollment } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { CopyButton } from '../components/CopyButton.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { When } from '../components/When.js';
import { dateInputValue, startOfLocalDay } from '../date-input.js';
import { useCan } from '../permissions.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';

/** How long a new enrollment's command works unless changed, and at most (the server refuses more). */
const DEFAULT_DAYS = 7;
const MAX_DAYS = 90;

/**
 * Adding hosts: an enrollment gives a one-line command that enrolls a host (Lynis installed and pointed at the
 * server, a daily audit scheduled) under a license key with groups, tags and a customer. The command carries a secret
 * and is shown once; the list shows every enrollment, its hosts and state, and revokes one (its hosts keep reporting).
 */
export function AddHostsPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const mayCreate = useCan('createEnrollment');
  const [loaded, reload] = useLoad(
    async () => {
      const [enrollments, keys] = await Promise.all([data(listEnrollments({ client })), mayCreate ? data(listLicenseKeys({ client })) : undefined]);
      return { enrollments: enrollments.items, keys: (keys?.items ?? []).filter((key) => key.state === 'valid') };
    },
    `enrollments ${mayCreate}`,
    onUnauthorized,
  );
  const [shown, setShown] = useState<NewEnrollment>();
  const { problem, change } = useChange(reload, onUnauthorized);
  const keys = loaded.state === 'ready' ? loaded.value.keys : [];
  return (
    <section aria-labelledby="add-hosts-title">
      <h1 id="add-hosts-title" tabIndex={-1}>
        Add hosts
      </h1>
      <p className="hint">
        Run one command on each host, as root: it installs Lynis when missing, points it at this server, schedules a daily audit and runs the first one. Hosts
        appear under Hosts after their first upload.
      </p>
      {mayCreate && <EnrollmentForm keys={keys} client={client} change={change} onCreated={setShown} />}
      {shown && <ShownCommand created={shown} onDone={() => setShown(undefined)} />}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <h2>Enrollments</h2>
      <LoadedTable
        loaded={mapLoaded(loaded, (value) => value.enrollments)}
        columns={columns((enrollment) => (
          <RevokeButton enrollment={enrollment} client={client} change={change} />
        ))}
        rowKey={(enrollment) => enrollment.id}
        empty={<p className="muted">No enrollment yet.</p>}
      />
    </section>
  );
}

/** Comma- or space-separated labels as a list, blanks dropped. */
const labelsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The form of a new enrollment: key, groups, tags, customer, expiry (a week unless changed) and most hosts. */
function EnrollmentForm({
  keys,
  client,
  change,
  onCreated,
}: {
  keys: { id: string; label: string | null; prefix: string }[];
  client: Client;
  change: Change;
  onCreated(created: NewEnrollment): void;
}) {
  const today = new Date();
  const dayIn = (days: number) => dateInputValue(new Date(today.getFullYear(), today.getMonth(), today.getDate() + days));
  const [keyId, setKeyId] = useState('');
  const [groups, setGroups] = useState('');
  const [tags, setTags] = useState('');
  const [customer, setCustomer] = useState('');
  const [expiresOn, setExpiresOn] = useState(dayIn(DEFAULT_DAYS));
  const [maxHosts, setMaxHosts] = useState('');
  const create = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const body = {
        licenseKeyId: keyId || keys[0]!.id,
        systemGroups: labelsOf(groups),
        tags: labelsOf(tags),
        customer: customer.trim() || null,
        expiresAt: startOfLocalDay(expiresOn),
        maxHosts: maxHosts === '' ? null : Number(maxHosts),
      };
      onCreated(await data(createEnrollment({ client, body })));
    });
  };
  if (keys.length === 0) return <p className="hint">Create a license key first (Keys): enrolled hosts report under one.</p>;
  return (
    <form className="filters" onSubmit={create} aria-label="New enrollment">
      <label htmlFor="enroll-key">License key</label>
      <select id="enroll-key" value={keyId || keys[0]!.id} onChange={(event) => setKeyId(event.target.value)}>
        {keys.map((key) => (
          <option key={key.id} value={key.id}>
            {key.label ?? `${key.prefix}…`}
          </option>
        ))}
      </select>
      <label htmlFor="enroll-groups">System groups (comma-separated)</label>
      <input id="enroll-groups" value={groups} onChange={(event) => setGroups(event.target.value)} placeholder="webservers" pattern="[A-Za-z0-9._, -]*" />
      <label htmlFor="enroll-tags">Tags (comma-separated)</label>
      <input id="enroll-tags" value={tags} onChange={(event) => setTags(event.target.value)} placeholder="production" pattern="[A-Za-z0-9._, -]*" />
      <label htmlFor="enroll-customer">Customer</label>
      <input id="enroll-customer" value={customer} onChange={(event) => setCustomer(event.target.value)} maxLength={128} pattern="[A-Za-z0-9._ -]*" />
      <label htmlFor="enroll-expires">Command works until (local time)</label>
      <input
        id="enroll-expires"
        type="date"
        required
        min={dayIn(1)}
        max={dayIn(MAX_DAYS - 1)}
        value={expiresOn}
        onChange={(event) => setExpiresOn(event.target.value)}
      />
      <label htmlFor="enroll-max">Most hosts (blank: no maximum)</label>
      <input id="enroll-max" type="number" min={1} max={100_000} value={maxHosts} onChange={(event) => setMaxHosts(event.target.value)} />
      <button type="submit">Create command</button>
    </form>
  );
}

/** The new enrollment's command, shown this once, with a copy button and a warning that it carries a secret. */
function ShownCommand({ created, onDone }: { created: NewEnrollment; onDone(): void }) {
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>Copy this command now: it is shown only this once.</strong> It carries a secret that enrolls hosts until{' '}
        <When time={created.enrollment.expiresAt} />; keep it out of tickets and chats, and revoke the enrollment when done.
      </p>
      <label htmlFor="enroll-command">Command to run on each host</label>
      <textarea id="enroll-command" className="mono command" readOnly rows={3} value={created.command} onFocus={(event) => event.target.select()} />
      <div className="actions">
        <CopyButton text={created.command} label="Copy the command" />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** Revokes an enrollment after asking: its command stops working, its hosts keep reporting. */
function RevokeButton({ enrollment, client, change }: { enrollment: Enrollment; client: Client; change: Change }) {
  const mayRevoke = useCan('revokeEnrollment');
  if (!mayRevoke || enrollment.state === 'revoked') return null;
  const revoke = () =>
    confirm('Revoke this enrollment? Its command stops working at once; hosts that enrolled keep reporting.') &&
    void change(async () => void (await data(revokeEnrollment({ client, path: { enrollmentId: enrollment.id } }))));
  return (
    <button
      type="button"
      onClick={revoke}
      aria-label={`Revoke the enrollment of ${enrollment.keyLabel ?? enrollment.licenseKeyId} created ${enrollment.createdAt}`}
    >
      Revoke
    </button>
  );
}

/** The columns of the enrollments list; the last holds the revoke button. */
function columns(actions: (enrollment: Enrollment) => ReactNode): Column<Enrollment>[] {
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : '—');
  return [
    { header: 'Key', cellClassName: 'words', cell: (enrollment) => enrollment.keyLabel ?? enrollment.licenseKeyId },
    { header: 'Groups', cellClassName: 'words', cell: (enrollment) => list(enrollment.systemGroups) },
    { header: 'Tags', cellClassName: 'words', cell: (enrollment) => list(enrollment.tags) },
    { header: 'Customer', cellClassName: 'words', cell: (enrollment) => enrollment.customer ?? '—' },
    {
      header: 'Hosts',
      className: 'number',
      cellClassName: 'number nowrap',
      cell: (enrollment) => `${enrollment.hostCount} / ${enrollment.maxHosts ?? '∞'}`,
    },
    { header: 'State', cell: (enrollment) => enrollment.state },
    { header: 'Expires', cell: (enrollment) => <When time={enrollment.expiresAt} /> },
    { header: 'Created by', cellClassName: 'words', cell: (enrollment) => enrollment.createdBy ?? '—' },
    { header: 'Last fetched', cell: (enrollment) => <When time={enrollment.lastUsedAt} /> },
    { header: 'Actions', cell: actions },
  ];
}
