import type { Host } from '@org/audit-client/sdk';
import { hrefOf, hostsRoute } from '../route.js';

/**
 * A host's groups and tags (from its Lynis profile) as chips; each lists the hosts that share it. The text is the
 * host's own, shown as text: it reaches the link only encoded into the fragment of a hosts-list URL. Not `tabbable`,
 * the links are left out of the Tab order (mouse and screen readers still reach them).
 */
export function Labels({ host, tabbable = true }: { host: Pick<Host, 'groups' | 'tags'>; tabbable?: boolean }) {
  // Out of the Tab order in a list of hosts (one stop per row); the host's page and the list's filters offer the same.
  const tabIndex = tabbable ? undefined : -1;
  if (host.groups.length === 0 && host.tags.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="chips">
      {host.groups.map((group) => (
        <li key={`group:${group}`}>
          <a className="chip chip-group" tabIndex={tabIndex} href={hrefOf(hostsRoute({ group }))} title={`Hosts in the group ${group}`}>
            <span className="visually-hidden">group </span>
            {group}
          </a>
        </li>
      ))}
      {host.tags.map((tag) => (
        <li key={`tag:${tag}`}>
          <a className="chip chip-tag" tabIndex={tabIndex} href={hrefOf(hostsRoute({ tag }))} title={`Hosts tagged ${tag}`}>
            <span className="visually-hidden">tag </span>
            {tag}
          </a>
        </li>
      ))}
    </ul>
  );
}
