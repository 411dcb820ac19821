import { describe, expect, it } from 'vitest';
import { startOfLocalDay } from './date-input.js';
import {
  acceptanceOf,
  acknowledgementOf,
  detailsKey,
  reportedDetails,
  filtered,
  findingActions,
  findingStateLine,
  FINDING_STATE_TEXT,
  splitResolved,
  trackedQuery,
} from './finding-lifecycle.js';
import { hrefOf, parseRoute, type Route } from './route.js';

const APPROVER = '2f8fad5b-d9cb-469f-a165-70867728950e';

describe('finding lifecycle in words', () => {
  it('names every state in words, distinct from one another', () => {
    const words = Object.values(FINDING_STATE_TEXT);
    expect(words).toEqual(['Open', 'Acknowledged', 'Accepted', 'Resolved', 'Regressed']);
    expect(new Set(words).size).toBe(5);
  });

  it('says since when a finding is in its state, and how often it came back', () => {
    const finding = { state: 'regressed', stateSince: '2026-11-20T08:00:00.000Z', regressions: 2 } as const;
    expect(findingStateLine(finding, 'UTC')).toBe('Regressed since 2026-11-20 08:00:00 UTC; came back 2 times');
    expect(findingStateLine({ ...finding, state: 'open', regressions: 0 }, 'UTC')).toBe('Open since 2026-11-20 08:00:00 UTC');
    expect(findingStateLine({ ...finding, regressions: 1 }, 'UTC')).toMatch(/came back once$/);
  });

  it('lists resolved findings apart, keeping the order of the rest', () => {
    const findings = [{ state: 'regressed' }, { state: 'resolved' }, { state: 'open' }, { state: 'accepted' }, { state: 'resolved' }] as const;
    expect(splitResolved(findings)).toEqual({
      current: [{ state: 'regressed' }, { state: 'open' }, { state: 'accepted' }],
      resolved: [{ state: 'resolved' }, { state: 'resolved' }],
    });
  });

  it('offers reopening only what was handled, and nothing for a resolved finding', () => {
    expect(findingActions('open')).toEqual(['acknowledge', 'accept']);
    expect(findingActions('regressed')).toEqual(['acknowledge', 'accept']);
    expect(findingActions('acknowledged')).toEqual(['acknowledge', 'accept', 'reopen']);
    expect(findingActions('accepted')).toEqual(['acknowledge', 'accept', 'reopen']);
    expect(findingActions('resolved')).toEqual([]);
  });
});

describe('finding changes', () => {
  it('acknowledges for the signed-in person unless an owner is chosen, with a due day when given', () => {
    expect(acknowledgementOf({ owner: '', due: '' })).toEqual({ state: 'acknowledged' });
    expect(acknowledgementOf({ owner: APPROVER, due: '2026-12-01' })).toEqual({
      state: 'acknowledged',
      ownerUserId: APPROVER,
      dueAt: startOfLocalDay('2026-12-01'),
    });
  });

  it('accepts a risk only with a reason, a later day and an approver', () => {
    const values = { reason: '  Kept until the migration ', expires: '2027-03-31', approver: APPROVER };
    expect(acceptanceOf(values, '2026-11-26')).toEqual({
      state: 'accepted',
      reason: 'Kept until the migration',
      expiresAt: startOfLocalDay('2027-03-31'),
      approverUserId: APPROVER,
    });
    expect(acceptanceOf({ ...values, reason: ' ' }, '2026-11-26')).toBe('Say why the risk is accepted.');
    expect(acceptanceOf({ ...values, expires: '' }, '2026-11-26')).toBe('Choose the day the acceptance ends.');
    expect(acceptanceOf({ ...values, expires: '2026-11-26' }, '2026-11-26')).toBe('The acceptance must end after today.');
    expect(acceptanceOf({ ...values, approver: '' }, '2026-11-26')).toBe('Choose who approves it.');
  });
});

describe('tracked findings filters', () => {
  it('keeps every filter of the tracked view in the URL and reads them back', () => {
    const route: Route = {
      page: 'findings',
      view: 'tracked',
      states: ['open', 'regressed'],
      owner: 'me',
      group: 'web servers',
      kind: 'warning',
      testId: 'SSH-7408',
      minAgeDays: 30,
      offset: 50,
    };
    const href = hrefOf(route);
    expect(href).toBe('#/findings?view=tracked&kind=warning&test=SSH-7408&state=open%2Cregressed&owner=me&group=web+servers&age=30&offset=50');
    expect(parseRoute(href)).toEqual(route);
  });

  it('drops unknown states and ages out of bounds, and leaves tracked filters out of the grouped view', () => {
    expect(parseRoute('#/findings?view=tracked&state=open,closed,open&age=9999')).toEqual({ page: 'findings', view: 'tracked', states: ['open'], offset: 0 });
    expect(parseRoute('#/findings?view=other&state=closed')).toEqual({ page: 'findings', offset: 0 });
    expect(hrefOf({ page: 'findings', owner: 'me', kind: 'warning', offset: 0 })).toBe('#/findings?kind=warning');
  });

  it('asks the API for the filters given, and tells a filtered list from an empty one', () => {
    expect(trackedQuery({ states: ['open'], owner: 'me', minAgeDays: 0 }, { limit: 50, offset: 0 })).toEqual({
      limit: 50,
      offset: 0,
      state: ['open'],
      owner: 'me',
      minAgeDays: 0,
    });
    expect(trackedQuery({ states: [] }, { limit: 50, offset: 0 }).state).toBeUndefined();
    expect(filtered({})).toBe(false);
    expect(filtered({ states: [] })).toBe(false);
    expect(filtered({ minAgeDays: 0 })).toBe(true);
  });
});

describe("the newest report's details of tracked findings", () => {
  it('finds them by kind and test id, the first where a report has two', () => {
    const details = reportedDetails({
      warnings: [
        { testId: 'SSH-7408', text: 'a', details: 'PermitRootLogin', solution: null },
        { testId: 'SSH-7408', text: 'b', details: 'second', solution: null },
      ],
      suggestions: [{ testId: 'SSH-7408', text: 'c', details: null, solution: 'Harden it' }],
    });
    expect(details.get(detailsKey({ kind: 'warning', testId: 'SSH-7408' }))?.details).toBe('PermitRootLogin');
    expect(details.get(detailsKey({ kind: 'suggestion', testId: 'SSH-7408' }))?.solution).toBe('Harden it');
    expect(details.get(detailsKey({ kind: 'warning', testId: 'PKGS-7392' }))).toBeUndefined();
    expect(reportedDetails(null).size).toBe(0);
  });
});
