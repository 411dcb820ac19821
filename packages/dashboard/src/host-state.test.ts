import { describe, expect, it } from 'vitest';
import { bulkStateActions, confirmsHost, hostStateLine, stateReasonText, statesChangedMessage } from './host-state.js';

describe('host states in words', () => {
  it('says since when and why a host is in its state', () => {
    const host = { state: 'decommissioned', stateSince: '2026-11-20T08:00:00.000Z', stateReason: 'operator' } as const;
    expect(hostStateLine(host, 'UTC')).toBe('Decommissioned since 2026-11-20 08:00:00 UTC: changed by an operator');
    expect(hostStateLine({ ...host, state: 'stale', stateReason: 'no-report' }, 'UTC')).toBe(
      'Stale since 2026-11-20 08:00:00 UTC: no report for longer than the stale threshold',
    );
    expect(stateReasonText('group-expiry')).toBe("no report within its group's expiry time");
    expect(stateReasonText('auto-purge')).toMatch(/allow-auto-purge/);
  });

  it('reports how many of the hosts selected changed, and why the others did not', () => {
    expect(statesChangedMessage('decommission', 3, 3)).toBe('3 of 3 hosts decommissioned.');
    expect(statesChangedMessage('reactivate', 1, 1)).toBe('1 of 1 host reactivated.');
    expect(statesChangedMessage('decommission', 2, 1200)).toBe('2 of 1,200 hosts decommissioned (the others were decommissioned already).');
    expect(statesChangedMessage('reactivate', 0, 2)).toBe('0 of 2 hosts reactivated (the others were not decommissioned).');
  });

  it('offers only the bulk actions that can change a host of the list shown', () => {
    expect(bulkStateActions(undefined)).toEqual(['decommission']);
    expect(bulkStateActions('stale')).toEqual(['decommission']);
    expect(bulkStateActions('decommissioned')).toEqual(['reactivate']);
    expect(bulkStateActions('all')).toEqual(['decommission', 'reactivate']);
  });

  it("confirms a deletion only with the host's exact name or id", () => {
    const host = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', hostname: 'web-01' };
    expect(confirmsHost(' web-01 ', host)).toBe(true);
    expect(confirmsHost(host.id, host)).toBe(true);
    expect(confirmsHost('WEB-01', host)).toBe(false);
    expect(confirmsHost('web', host)).toBe(false);
    expect(confirmsHost('', { ...host, hostname: null })).toBe(false);
    expect(confirmsHost('', { id: '', hostname: '' })).toBe(false);
  });
});
