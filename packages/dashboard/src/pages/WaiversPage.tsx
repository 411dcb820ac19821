import { useState, type ReactNode } from 'react';
import { deleteWaiver, listWaivers, type Waiver } from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { data } from '../api.js';
import { hrefOf, type PageProps } from '../route.js';
import { useChange, type Change } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { bySoonestExpiry, coverageOf, EXPIRING_SOON_DAYS, expiryState } from '../waivers.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { When } from '../components/When.js';

/**
 * The exceptions to compliance rules (waivers) in force, soonest expiry first, or expired ones too: what each
 * accepts, for whom, why, who created it and until when; each can be deleted after a confirmation. A reason, a host
 * name and a group are shown as text only.
 */
export function WaiversPage({ client, route, onUnauthorized }: PageProps<'waivers'>) {
  const includeExpired = route.expired === true;
  const [loaded, reload] = useLoad(() => data(listWaivers({ client, query: { includeExpired } })), `waivers ${includeExpired}`, onUnauthorized);
  const { problem, change } = useChange(reload, onUnauthorized);
  const mayDelete = useCan('deleteWaiver');
  const [now] = useState(() => new Date());
  return (
    <section aria-labelledby="waivers-title">
      <h1 id="waivers-title" tabIndex={-1}>
        Exceptions
      </h1>
      <p className="hint">
        Failing rules accepted for a while (waivers): until it expires, a failure an exception covers counts as waived. Accept one from a host&apos;s
        compliance. Those ending within {EXPIRING_SOON_DAYS} days are marked.
        {loaded.state === 'ready' && ` An exception may run for at most ${loaded.value.maxDays} days.`}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={includeExpired}
          onChange={(event) => (window.location.hash = hrefOf({ page: 'waivers', expired: event.target.checked || undefined }))}
        />{' '}
        Include expired exceptions
      </label>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <LoadedTable
        loaded={mapLoaded(loaded, (value) => bySoonestExpiry(value.items))}
        scroll
        caption={includeExpired ? 'Exceptions, expired ones included' : 'Exceptions in force'}
        empty={<p>{includeExpired ? 'No exceptions.' : 'No exceptions in force.'}</p>}
        columns={columns(
          now,
          (waiver) =>
            mayDelete && (
              <DeleteWaiver waiver={waiver} change={change} onDelete={async () => void (await data(deleteWaiver({ client, path: { waiverId: waiver.id } })))} />
            ),
        )}
        rowKey={(waiver) => waiver.id}
      />
    </section>
  );
}

/** The columns of the list; the last holds each exception's delete button. */
function columns(now: Date, actions: (waiver: Waiver) => ReactNode): Column<Waiver>[] {
  return [
    { header: 'Policy', cell: (waiver) => waiver.policyName ?? waiver.policyId },
    { header: 'Rule', cellClassName: 'nowrap', cell: (waiver) => (waiver.ruleId ? <code>{waiver.ruleId}</code> : 'every rule') },
    {
      header: 'Covers',
      cell: (waiver) => {
        const { text, hostRecordId } = coverageOf(waiver);
        return hostRecordId ? <a href={hrefOf({ page: 'host', id: hostRecordId })}>{text}</a> : text;
      },
    },
    { header: 'Reason', cellClassName: 'reason', cell: (waiver) => waiver.reason },
    { header: 'Created by', cell: (waiver) => waiver.createdBy ?? '—' },
    { header: 'Created', cell: (waiver) => <When time={waiver.createdAt} /> },
    { header: 'Expires', cell: (waiver) => <Expiry expiresAt={waiver.expiresAt} now={now} /> },
    { header: 'Actions', cell: actions },
  ];
}

/** When an exception ends, marked when that is soon or past. */
function Expiry({ expiresAt, now }: { expiresAt: string; now: Date }) {
  const state = expiryState(expiresAt, now);
  return (
    <>
      <When time={expiresAt} />
      {state && <span className={`badge badge-${state}`}>{state === 'soon' ? 'expiring soon' : 'expired'}</span>}
    </>
  );
}

/** "Delete…", then a confirmation naming what goes, with a way back. */
function DeleteWaiver({ waiver, change, onDelete }: { waiver: Waiver; change: Change; onDelete(): Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const subject = `${waiver.policyName ?? waiver.policyId} / ${waiver.ruleId ?? 'every rule'} for ${coverageOf(waiver).text}`;
  if (!confirming)
    return (
      <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete the exception ${subject}…`}>
        Delete…
      </button>
    );
  return (
    <span role="group" aria-label={`Delete the exception ${subject}?`} className="confirm">
      <span>Delete? Its failures count again.</span>{' '}
      <button type="button" className="danger" autoFocus onClick={() => void change(onDelete)}>
        Delete
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </span>
  );
}
