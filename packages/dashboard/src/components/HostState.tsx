import type { Host } from '@org/audit-client/sdk';
import { HOST_STATE_TEXT, hostStateLine, stateReasonText } from '../host-state.js';
import { When } from './When.js';

type HostStateFields = Pick<Host, 'state' | 'stateSince' | 'stateReason'>;

/** A host's lifecycle state as a badge; since when and why on hover. */
export function HostStateBadge({ host }: { host: HostStateFields }) {
  return (
    <span className={`badge badge-state-${host.state}`} title={hostStateLine(host)}>
      {HOST_STATE_TEXT[host.state]}
    </span>
  );
}

/** A host's state beside its name: the badge, since when, and why in words. */
export function HostStateSummary({ host }: { host: HostStateFields }) {
  return (
    <p className="host-state">
      <HostStateBadge host={host} /> since <When time={host.stateSince} /> <span className="muted">({stateReasonText(host.stateReason)})</span>
    </p>
  );
}

/** What being decommissioned means for a host, said where it is decommissioned. */
export function DecommissionedNotice() {
  return (
    <p className="notice decommissioned">
      This host is decommissioned: it is left out of every fleet figure, compliance percentage and chart, and of the hosts list unless its State filter asks for
      decommissioned hosts. Its reports are kept. A new report from it makes it active again.
    </p>
  );
}
