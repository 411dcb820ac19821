import { useState, type FormEvent } from 'react';
import {
  createDigestSchedule,
  deleteDigestSchedule,
  issueDigest,
  listDigestSchedules,
  listDigests,
  resendDigest,
  type Digest,
  type DigestCadence,
  type DigestPage,
  type DigestSchedule,
} from '@org/audit-client/sdk';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { attemptsText, DELIVERY_MEANINGS, periodText, scopeText } from '../digest-text.js';
import { useCan } from '../permissions.js';
import { DIGEST_STATUSES, hrefOf, type PageProps } from '../route.js';
import { useChange } from '../use-change.js';
import { mapLoaded, useLoad, type Loaded } from '../use-load.js';
import { LoadedTable, Table, type Column } from '../components/Table.js';
import { Status } from '../components/Status.js';
import { When } from '../components/When.js';

const PAGE_SIZE = 25;

/**
 * Scheduled digests: the schedules (a form for a new one, for admins; issue now, for operators; delete, for admins)
 * and the digests issued with their delivery, newest first. A digest whose email failed is shown in red with why, and
 * operators may send it again. Group, customer and error texts are shown as text only.
 */
export function DigestsPage({ client, route, onUnauthorized }: PageProps<'digests'>) {
  const [schedules, reloadSchedules] = useLoad(() => data(listDigestSchedules({ client })), 'digest schedules', onUnauthorized);
  const [digests, reloadDigests] = useLoad(
    () => data(listDigests({ client, query: { status: route.status, limit: PAGE_SIZE, offset: route.offset } })),
    hrefOf(route),
    onUnauthorized,
  );
  const reload = () => {
    reloadSchedules();
    reloadDigests();
  };
  const { problem, change } = useChange(reload, onUnauthorized);
  const [notice, setNotice] = useState<string>();
  const mayCreate = useCan('createDigestSchedule');
  const mayDelete = useCan('deleteDigestSchedule');
  const mayIssue = useCan('issueDigest');
  const mayResend = useCan('resendDigest');
  const issue = (schedule: DigestSchedule) =>
    void change(async () => {
      const issued = await data(issueDigest({ client, path: { scheduleId: schedule.id } }));
      setNotice(`Digest of ${scopeText(issued.scope)} issued (${issued.delivery.status}).`);
    });
  const remove = (schedule: DigestSchedule) => {
    if (!confirm(`Stop the ${schedule.cadence} digest of ${scopeText(schedule.scope)}? The digests it issued stay.`)) return;
    void change(async () => void (await data(deleteDigestSchedule({ client, path: { scheduleId: schedule.id } }))));
  };
  const resend = (digest: Digest) =>
    void change(async () => {
      await data(resendDigest({ client, path: { digestId: digest.id } }));
      setNotice(`Digest of ${scopeText(digest.scope)} queued to be sent again.`);
    });
  return (
    <section aria-labelledby="digests-title">
      <h1 id="digests-title" tabIndex={-1}>
        Digests
      </h1>
      <p className="hint">
        A weekly digest is issued after Monday 00:00 UTC for the week before, a monthly one after the 1st: compliance and its change, the top regressions, the
        oldest open findings and the accepted risks expiring within 14 days. Each is emailed to its recipients (when the server has SMTP settings), announced by
        the <code>digest.ready</code> webhook event, and readable as a printable page. Recipients&apos; addresses are shown to admins only.
      </p>
      <p className="status" role="status">
        {notice}
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <h2>Schedules</h2>
      <LoadedTable
        loaded={mapLoaded(schedules, (value) => value.items)}
        scroll
        empty={<p>No digest is scheduled.</p>}
        columns={scheduleColumns(mayIssue ? issue : undefined, mayDelete ? remove : undefined)}
        rowKey={(schedule) => schedule.id}
      />
      {mayCreate && <ScheduleForm onCreate={(input) => change(async () => void (await data(createDigestSchedule({ client, body: input }))))} />}
      <IssuedDigests route={route} digests={digests} onReload={reload} onResend={mayResend ? resend : undefined} />
    </section>
  );
}

/** The digests issued, newest first, filtered by their delivery's status (in the route, so it survives reload) and paged. */
function IssuedDigests({
  route,
  digests,
  onReload,
  onResend,
}: {
  route: PageProps<'digests'>['route'];
  digests: Loaded<DigestPage>;
  onReload(): void;
  /** Not given when the signed-in role may not resend: the buttons are left out. */
  onResend?(digest: Digest): void;
}) {
  const filter = (status: string) => (window.location.hash = hrefOf({ ...route, status: DIGEST_STATUSES.find((name) => name === status), offset: 0 }));
  return (
    <>
      <h2 id="issued-title">Issued digests</h2>
      <div className="filters">
        <label htmlFor="digest-status">Delivery</label>
        <select id="digest-status" value={route.status ?? ''} onChange={(event) => filter(event.target.value)}>
          <option value="">Any</option>
          {DIGEST_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status} ({DELIVERY_MEANINGS[status]})
            </option>
          ))}
        </select>
        <button type="button" onClick={onReload}>
          Reload
        </button>
      </div>
      <Status loaded={digests} />
      {digests.state === 'ready' && (
        <Table
          className="digests"
          scroll
          caption={`${pageCaption('Digests', digests.value, 'No digest issued yet.')}${digests.value.total === 0 ? '' : ', newest first'}`}
          columns={digestColumns(onResend)}
          rows={digests.value.items}
          rowKey={(digest) => digest.id}
          paging={{ route, pageSize: PAGE_SIZE, total: digests.value.total, label: 'Pages of digests' }}
        />
      )}
    </>
  );
}

function scheduleColumns(onIssue?: (schedule: DigestSchedule) => void, onDelete?: (schedule: DigestSchedule) => void): Column<DigestSchedule>[] {
  const columns: Column<DigestSchedule>[] = [
    { header: 'Scope', cell: (schedule) => scopeText(schedule.scope) },
    { header: 'Cadence', cell: (schedule) => schedule.cadence },
    {
      header: 'Recipients',
      cell: (schedule) => (
        <ul className="plain">
          {schedule.recipients.map((recipient, index) => (
            <li key={index}>{recipient}</li>
          ))}
        </ul>
      ),
    },
    { header: 'Last issued', cell: (schedule) => (schedule.lastIssuedAt ? <When time={schedule.lastIssuedAt} /> : 'never') },
    { header: 'Next due', cell: (schedule) => <When time={schedule.nextDueAt} /> },
  ];
  if (!onIssue && !onDelete) return columns;
  return [
    ...columns,
    {
      header: <span className="visually-hidden">Actions</span>,
      cellClassName: 'nowrap',
      cell: (schedule) => (
        <>
          {onIssue && (
            <button type="button" onClick={() => onIssue(schedule)}>
              Issue now
            </button>
          )}{' '}
          {onDelete && (
            <button type="button" className="danger" onClick={() => onDelete(schedule)}>
              Delete
            </button>
          )}
        </>
      ),
    },
  ];
}

function digestColumns(onResend?: (digest: Digest) => void): Column<Digest>[] {
  return [
    {
      header: 'Digest',
      cell: (digest) => (
        <>
          <a href={hrefOf({ page: 'digest', id: digest.id })}>
            {digest.cadence === 'weekly' ? 'Weekly' : 'Monthly'} digest of {scopeText(digest.scope)}
          </a>
          <span className="sub">{periodText(digest)}</span>
        </>
      ),
    },
    { header: 'Issued', cell: (digest) => <When time={digest.createdAt} /> },
    {
      header: 'Delivery',
      cellClassName: (digest) => (digest.delivery.status === 'failed' ? 'status-fail' : ''),
      cell: (digest) => <Delivery digest={digest} onResend={onResend} />,
    },
  ];
}

/** A digest's delivery: its status, attempts and next attempt; a failed one with why, in red, and Resend for operators. */
function Delivery({ digest, onResend }: { digest: Digest; onResend?: (digest: Digest) => void }) {
  const { status, attempts, lastError, nextAttemptAt, sentAt } = digest.delivery;
  return (
    <>
      <strong>{status}</strong>
      {status === 'sent' && sentAt && (
        <span className="sub">
          <When time={sentAt} />
        </span>
      )}
      {(status === 'pending' || status === 'failed') && attempts > 0 && <span className="sub">{attemptsText(attempts)}</span>}
      {status === 'pending' && nextAttemptAt && (
        <span className="sub">
          next <When time={nextAttemptAt} />
        </span>
      )}
      {lastError && status !== 'sent' && <span className="sub mono">{lastError}</span>}
      {onResend && (status === 'failed' || status === 'sent') && (
        <span className="sub">
          <button type="button" onClick={() => onResend(digest)}>
            Resend
          </button>
        </span>
      )}
    </>
  );
}

/** The form of a new schedule: whose digest (the fleet, a group or a customer), how often, and to whom. */
function ScheduleForm({
  onCreate,
}: {
  onCreate(input: { scope: { group?: string; customer?: string }; cadence: DigestCadence; recipients: string[] }): Promise<void>;
}) {
  const [of, setOf] = useState<'fleet' | 'group' | 'customer'>('group');
  const [name, setName] = useState('');
  const [cadence, setCadence] = useState<DigestCadence>('weekly');
  const [recipients, setRecipients] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const addresses = recipients
      .split(/[\s,;]+/)
      .map((address) => address.trim())
      .filter(Boolean);
    const scope = of === 'group' ? { group: name.trim() } : of === 'customer' ? { customer: name.trim() } : {};
    void onCreate({ scope, cadence, recipients: addresses });
  };
  return (
    <form onSubmit={submit} aria-labelledby="new-schedule-title">
      <h3 id="new-schedule-title">New schedule</h3>
      <div className="filter-grid">
        <div className="field">
          <label htmlFor="digest-of">Digest of</label>
          <select id="digest-of" value={of} onChange={(event) => setOf(event.target.value as typeof of)}>
            <option value="group">a system group</option>
            <option value="customer">a customer</option>
            <option value="fleet">the whole fleet</option>
          </select>
        </div>
        {of !== 'fleet' && (
          <div className="field">
            <label htmlFor="digest-scope-name">{of === 'group' ? 'Group' : 'Customer'}</label>
            <input id="digest-scope-name" value={name} required maxLength={255} onChange={(event) => setName(event.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor="digest-cadence">Cadence</label>
          <select id="digest-cadence" value={cadence} onChange={(event) => setCadence(event.target.value as DigestCadence)}>
            <option value="weekly">weekly (after Monday 00:00 UTC)</option>
            <option value="monthly">monthly (after the 1st)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="digest-recipients">Recipients (comma-separated)</label>
          <input id="digest-recipients" value={recipients} required onChange={(event) => setRecipients(event.target.value)} placeholder="secops@example.org" />
        </div>
        <div className="field actions">
          <button type="submit">Schedule digest</button>
        </div>
      </div>
    </form>
  );
}
