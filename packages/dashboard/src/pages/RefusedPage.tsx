import { listLicenseKeys, listRejections, type Client, type LicenseKeyInfo, type RejectionGroup } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';

const PAGE_SIZE = 50;

/** The reasons a server refuses, with what each means for the host losing its report. */
const REASONS: Record<string, string> = {
  'invalid-key': 'key unknown, revoked or expired',
  'invalid-data': 'report unreadable',
  'invalid-request': 'field missing or invalid',
  malformed: 'body unreadable',
  'unsupported-type': 'not a form',
  'too-large': 'report too large',
  'method-not-allowed': 'wrong method',
  'rate-limited': 'over a rate limit',
  busy: 'server busy',
  'too-slow': 'sent too slowly',
  unavailable: 'database unavailable',
};

/** Refused uploads and license checks: which hosts are losing reports, and why. Newest day first, paged. */
export function RefusedPage({ client, route, onUnauthorized }: { client: Client; route: Extract<Route, { page: 'refused' }>; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const query = { limit: PAGE_SIZE, offset: route.offset, ...(route.reason ? { reason: route.reason } : {}) };
      const [page, keys] = await Promise.all([data(listRejections({ client, query })), data(listLicenseKeys({ client }))]);
      return { page, keys: new Map(keys.items.map((key) => [key.id, key])) };
    },
    hrefOf(route),
    onUnauthorized,
  );
  const filter = (reason: string) => (window.location.hash = hrefOf({ page: 'refused', reason: reason || undefined, offset: 0 }));
  return (
    <section aria-labelledby="refused-title">
      <h1 id="refused-title">Refused uploads</h1>
      <p className="hint">
        Lynis prints <code>DONE</code> even when the server refused its upload: these hosts are losing reports. Counted per day (UTC), written
        every few seconds.
      </p>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="reason-filter">Reason</label>
        <select id="reason-filter" value={route.reason ?? ''} onChange={(event) => filter(event.target.value)}>
          <option value="">Any reason</option>
          {Object.entries(REASONS).map(([reason, meaning]) => (
            <option key={reason} value={reason}>
              {reason} ({meaning})
            </option>
          ))}
        </select>
      </form>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          <table>
            <caption>
              {loaded.value.page.total === 0
                ? 'No refused uploads or license checks.'
                : `Refusals ${loaded.value.page.offset + 1}–${loaded.value.page.offset + loaded.value.page.items.length} of ${loaded.value.page.total}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Host id</th>
                <th scope="col">Key</th>
                <th scope="col">Request</th>
                <th scope="col">Reason</th>
                <th scope="col" className="number">Refused</th>
                <th scope="col">Last refused</th>
                <th scope="col">Client address</th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.page.items.map((item) => (
                <tr key={JSON.stringify([item.day, item.operation, item.reason, item.keyId, item.hostId, item.folded])}>
                  <td className="nowrap">{item.day}</td>
                  <td className={item.hostId === null ? 'muted' : 'mono'}>{hostOf(item)}</td>
                  <td className="nowrap">{keyOf(item.keyId, loaded.value.keys)}</td>
                  <td>{item.operation === 'uploadReport' ? 'Upload' : 'License check'}</td>
                  <td>
                    <span className="mono nowrap">{item.reason}</span>
                    {REASONS[item.reason] && <span className="muted reason-meaning">{REASONS[item.reason]}</span>}
                  </td>
                  <td className="number">{item.count}</td>
                  {/* The day is in the first column: the time of day is enough here. */}
                  <td className="nowrap">{formatTime(item.lastAt).slice(11)}</td>
                  <td className="mono">{addressesOf(item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="pager" aria-label="Pages of refusals">
            {route.offset > 0 && <a href={hrefOf({ ...route, offset: Math.max(0, route.offset - PAGE_SIZE) })}>Previous page</a>}
            {route.offset + PAGE_SIZE < loaded.value.page.total && <a href={hrefOf({ ...route, offset: route.offset + PAGE_SIZE })}>Next page</a>}
          </nav>
        </>
      )}
    </section>
  );
}

/** The host id as sent (text only, never markup), or why there is none. */
function hostOf(item: RejectionGroup): string {
  if (item.folded) return '(many hosts: over the server\'s bound)';
  return item.hostId ?? '(none sent)';
}

/** A key by its label and first characters, or its id when it is not listed. */
function keyOf(keyId: string | null, keys: Map<string, LicenseKeyInfo>): string {
  if (keyId === null) return 'unknown key';
  const key = keys.get(keyId);
  return key ? `${key.label ?? '(no label)'} · ${key.prefix}…` : keyId;
}

function addressesOf(item: RejectionGroup): string {
  const more = item.addressCount - item.remoteAddresses.length;
  return item.remoteAddresses.join(', ') + (more > 0 ? ` and ${more} more` : '') || '—';
}
