import { useEffect, useState } from 'react';

/** The dashboard's pages, addressed by the URL's fragment (`#/hosts/<id>`), so the server serves one file. */
export type Route =
  | { page: 'hosts'; hostname?: string; offset: number }
  | { page: 'host'; id: string }
  | { page: 'raw-report'; id: string }
  | { page: 'report-diff'; id: string; against?: string }
  | { page: 'keys' }
  | { page: 'refused'; reason?: string; offset: number };

/** Reads a fragment such as `#/hosts?hostname=web&offset=50`; anything unknown is the hosts list. */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'hosts' && parts[1]) return { page: 'host', id: parts[1] };
  if (parts[0] === 'reports' && parts[1] && parts[2] === 'raw') return { page: 'raw-report', id: parts[1] };
  if (parts[0] === 'reports' && parts[1] && parts[2] === 'diff') return { page: 'report-diff', id: parts[1], against: params.get('against') || undefined };
  if (parts[0] === 'keys') return { page: 'keys' };
  const offset = Number(params.get('offset') ?? 0);
  if (parts[0] === 'refused') return { page: 'refused', reason: params.get('reason') || undefined, offset: Number.isSafeInteger(offset) && offset > 0 ? offset : 0 };
  return { page: 'hosts', hostname: params.get('hostname') || undefined, offset: Number.isSafeInteger(offset) && offset > 0 ? offset : 0 };
}

/** The fragment of a route, for links. */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'host':
      return `#/hosts/${encodeURIComponent(route.id)}`;
    case 'raw-report':
      return `#/reports/${encodeURIComponent(route.id)}/raw`;
    case 'report-diff':
      return `#/reports/${encodeURIComponent(route.id)}/diff${route.against ? `?against=${encodeURIComponent(route.against)}` : ''}`;
    case 'keys':
      return '#/keys';
    case 'refused': {
      const params = new URLSearchParams();
      if (route.reason) params.set('reason', route.reason);
      if (route.offset) params.set('offset', String(route.offset));
      const query = params.toString();
      return `#/refused${query ? `?${query}` : ''}`;
    }
    case 'hosts': {
      const params = new URLSearchParams();
      if (route.hostname) params.set('hostname', route.hostname);
      if (route.offset) params.set('offset', String(route.offset));
      const query = params.toString();
      return `#/hosts${query ? `?${query}` : ''}`;
    }
  }
}

/** The current route, following the fragment as it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
