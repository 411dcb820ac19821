import type { LicenseKeyInfo, RejectionGroup } from '@org/audit-client/sdk';
import { formatTime } from '../format.js';
import { addressesOf, hostLinkOf, hostOf, keyOf, REASONS } from '../refusals.js';
import type { Column } from './Table.js';

type RefusalColumn = Column<RejectionGroup>;

/** The columns of a list of refusals (a day's count per request, reason, key and host id). */
export const REFUSAL_COLUMNS = {
  day: { header: 'Day', cellClassName: 'nowrap', cell: (item) => item.day },
  hostId: { header: 'Host id', cellClassName: (item) => (item.hostId === null ? 'muted' : 'mono'), cell: HostIdCell },
  request: { header: 'Request', cell: (item) => (item.operation === 'uploadReport' ? 'Upload' : 'License check') },
  reason: {
    header: 'Reason',
    cell: (item) => (
      <>
        <span className="mono nowrap">{item.reason}</span>
        {REASONS[item.reason] && <span className="muted reason-meaning">{REASONS[item.reason]}</span>}
      </>
    ),
  },
  count: { header: 'Refused', className: 'number', cell: (item) => item.count },
  // The day is in its own column: the time of day is enough here.
  lastAt: { header: 'Last refused', cellClassName: 'nowrap', cell: (item) => formatTime(item.lastAt).slice(11) },
  addresses: { header: 'Client address', cellClassName: 'mono addresses', cell: addressesOf },
} satisfies Record<string, RefusalColumn>;

/** A refusal's host id, as text, linking to the hosts that sent it. */
function HostIdCell(item: RejectionGroup) {
  const href = hostLinkOf(item);
  return href ? <a href={href}>{hostOf(item)}</a> : hostOf(item);
}

/** The key a refusal named, by its label and first characters; `className` is its cells' class. */
export function keyColumn(keys: Map<string, LicenseKeyInfo>, className: string): RefusalColumn {
  return { header: 'Key', cellClassName: className, cell: (item) => keyOf(item.keyId, keys) };
}

/** Tells the refusals of a list apart. */
export const refusalKey = (item: RejectionGroup) => JSON.stringify([item.day, item.operation, item.reason, item.keyId, item.hostId, item.folded]);
