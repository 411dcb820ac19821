import { listWaivers, type Client } from '@org/audit-client/sdk';
import { data } from './api.js';
import { useLoad } from './use-load.js';

/** The contract's default of the server's `waiverMaxDays`, used when the server could not be asked (it still checks). */
const FALLBACK_MAX_DAYS = 365;

/**
 * The longest a waiver may run on this server (`WaiverList.maxDays`), in days; undefined while it is being asked.
 * A 401 calls `onUnauthorized`; another failure gives the default, since the server refuses a longer waiver anyway.
 */
export function useWaiverMaxDays(client: Client, onUnauthorized: () => void): number | undefined {
  const [loaded] = useLoad(() => data(listWaivers({ client, query: { policyId: NO_POLICY } })), 'waiver-max-days', onUnauthorized);
  if (loaded.state === 'loading') return undefined;
  return loaded.state === 'ready' ? loaded.value.maxDays : FALLBACK_MAX_DAYS;
}

/** A policy id no policy has: the list's answer then carries the maximum without every waiver of the fleet. */
const NO_POLICY = '00000000-0000-0000-0000-000000000000';
