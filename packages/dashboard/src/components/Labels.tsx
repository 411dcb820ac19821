import type { Host } from '@org/audit-client/sdk';
import { hrefOf, hostsRoute } from '../route.js';

/**
 * A host's groups and tags (from its Lynis profile) as chips; each lists the hosts that share it. The text is the
 * host's own, shown as text: it reaches the link only encoded into the fragment of a hosts-list URL.
 */
export function Labels({ host }: { host: Pick<Host, 'groups' | 'tags'> }) {
  if (host.groups.length === 0 && host.tags.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="chips">
      {host.groups.map((group) => (
        <li key={`group:${group}`}>
          <a className="chip chip-group" href={hrefOf(hostsRoute({ group }))} title={`Hosts in the group ${group}`}>
            <span className="visually-hidden">group </span>
            {group}
          </a>
        </li>
      ))}
      {host.tags.map((tag) => (
        <li key={`tag:${tag}`}>
          <a className="chip chip-tag" href={hrefOf(hostsRoute({ tag }))} title={`Hosts tagged ${tag}`}>
            <span className="visually-hidden">tag </span>
            {tag}
          </a>
        </li>
      ))}
    </ul>
  );
}
