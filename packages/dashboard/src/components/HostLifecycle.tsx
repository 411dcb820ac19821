import { useId, useState, type FormEvent } from 'react';
import { decommissionHost, deleteHost, getHost, mergeHosts, reactivateHost, type Client, type Host } from '@org/audit-client/sdk';
import { ApiError, data } from '../api.js';
import { confirmsHost } from '../host-state.js';
import { useCan } from '../permissions.js';
import { hostsRoute, hrefOf } from '../route.js';
import { useChange } from '../use-change.js';
import { formatTime } from '../format.js';

export interface HostLifecycleProps {
  client: Client;
  host: Host;
  /** The host changed: its page loads again. */
  reload(): void;
  onUnauthorized(): void;
}

/** A host's name as the page's sentences say it. */
const nameOf = (host: Pick<Host, 'hostname' | 'hostId'>) => host.hostname ?? `the host with host id ${host.hostId}`;

/**
 * What may be done with a host's life, by role: decommission or reactivate it (operator), merge another host into it
 * (operator), delete it with its reports (admin). Nothing shows to a role that may do none of it.
 */
export function HostLifecycle({ client, host, reload, onUnauthorized }: HostLifecycleProps) {
  const mayChangeState = useCan(host.state === 'decommissioned' ? 'reactivateHost' : 'decommissionHost');
  const mayMerge = useCan('mergeHosts');
  const mayDelete = useCan('deleteHost');
  const [open, setOpen] = useState<'merge' | 'delete'>();
  const { problem, change } = useChange(reload, onUnauthorized);
  if (!mayChangeState && !mayMerge && !mayDelete) return null;
  const path = { hostRecordId: host.id };
  const toggle = (form: 'merge' | 'delete') => setOpen(open === form ? undefined : form);
  return (
    <section className="host-lifecycle" aria-label="Host actions">
      <p className="actions">
        {mayChangeState &&
          (host.state === 'decommissioned' ? (
            <button type="button" onClick={() => void change(async () => void (await data(reactivateHost({ client, path }))))}>
              Reactivate
            </button>
          ) : (
            <button type="button" onClick={() => void change(async () => void (await data(decommissionHost({ client, path }))))}>
              Decommission
            </button>
          ))}
        {mayMerge && (
          <button type="button" aria-expanded={open === 'merge'} onClick={() => toggle('merge')}>
            Merge another host into this one…
          </button>
        )}
        {mayDelete && (
          <button type="button" className="danger" aria-expanded={open === 'delete'} onClick={() => toggle('delete')}>
            Delete host…
          </button>
        )}
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {open === 'merge' && <MergeHostForm client={client} host={host} reload={reload} onUnauthorized={onUnauthorized} onCancel={() => setOpen(undefined)} />}
      {open === 'delete' && <DeleteHostForm client={client} host={host} onUnauthorized={onUnauthorized} onCancel={() => setOpen(undefined)} />}
    </section>
  );
}

/** A failed call's message; a refused token signs out instead (and gives none). */
function messageOf(error: unknown, onUnauthorized: () => void): string | undefined {
  if (error instanceof ApiError && error.status === 401) {
    onUnauthorized();
    return undefined;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Merging another host into this one: its id, then a confirmation that names the other host and what moves (its
 * reports, policy result history and host waivers), then `mergeHosts`.
 */
function MergeHostForm({ client, host, reload, onUnauthorized, onCancel }: HostLifecycleProps & { onCancel(): void }) {
  const id = useId();
  const [otherId, setOtherId] = useState('');
  const [other, setOther] = useState<Host>();
  const [problem, setProblem] = useState<string>();
  const find = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const wanted = otherId.trim();
    if (wanted === host.id) return setProblem("That is this host's own id: give the id of the other host.");
    try {
      setOther(await data(getHost({ client, path: { hostRecordId: wanted }, query: { historyLimit: 1 } })));
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 404 ? 'No host has this id.' : messageOf(error, onUnauthorized));
    }
  };
  const merge = async () => {
    setProblem(undefined);
    try {
      await data(mergeHosts({ client, path: { hostRecordId: host.id }, body: { hostRecordId: other!.id } }));
      reload();
    } catch (error) {
      setProblem(messageOf(error, onUnauthorized));
    }
  };
  return (
    <div className="lifecycle-form">
      {!other ? (
        <form onSubmit={(event) => void find(event)}>
          <div className="field">
            <label htmlFor={`${id}-other`}>Id of the host to merge into this one (its page's address ends with it)</label>
            <input id={`${id}-other`} className="mono" size={40} required value={otherId} onChange={(event) => setOtherId(event.target.value)} autoFocus />
          </div>
          <p className="actions">
            <button type="submit">Continue</button>
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          </p>
        </form>
      ) : (
        <div role="group" aria-label={`Merge ${nameOf(other)} into ${nameOf(host)}?`}>
          <p>
            Merge <strong>{nameOf(other)}</strong> (host id <span className="mono">{other.hostId}</span>, {other.reportCount} reports, last seen{' '}
            {formatTime(other.lastSeen)}) into <strong>{nameOf(host)}</strong>?
          </p>
          <p className="hint">
            Its reports, policy result history and host waivers move to this host, which takes the newest report&apos;s host name, labels and findings. The
            other host disappears; its later reports join this host.
          </p>
          <p className="actions">
            <button type="button" className="danger" onClick={() => void merge()}>
              Merge
            </button>
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          </p>
        </div>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Deleting a host: what goes and that it cannot be undone, its name or id typed to confirm; then the hosts list. */
function DeleteHostForm({ client, host, onUnauthorized, onCancel }: Omit<HostLifecycleProps, 'reload'> & { onCancel(): void }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  const confirmed = confirmsHost(typed, host);
  const remove = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setProblem(undefined);
    try {
      await data(deleteHost({ client, path: { hostRecordId: host.id } }));
      window.location.hash = hrefOf(hostsRoute());
    } catch (error) {
      setProblem(messageOf(error, onUnauthorized));
    }
  };
  return (
    <form className="lifecycle-form" onSubmit={(event) => void remove(event)}>
      <p>
        This deletes <strong>{nameOf(host)}</strong> and {host.reportCount === 1 ? 'its one report' : `all its ${host.reportCount} reports`}, with their
        findings, policy results and the host&apos;s waivers. <strong>It cannot be undone.</strong> The audit trail keeps who deleted it; a later report under
        its host id makes a new host.
      </p>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>To confirm, type the host name{host.hostname ? '' : ' (it has none)'} or its id</label>
        <input id={`${id}-confirm`} className="mono" size={40} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" autoFocus />
      </div>
      <p className="actions">
        <button type="submit" className="danger" disabled={!confirmed}>
          Delete host and its reports
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
