import { describe, expect, it } from 'vitest';
import { settingsOf } from './webhook-events.js';

describe('webhook settings', () => {
  it('lists only the settings of the events chosen, and the delivery cap', () => {
    const settings = { staleDays: 7, regressionThreshold: 5, maxDeliveriesPerMinute: 60 };
    expect(settingsOf({ ...settings, events: ['report.stored'] })).toEqual(['at most 60 deliveries a minute']);
    expect(settingsOf({ ...settings, events: ['host.stale', 'host.regressed'] })).toEqual([
      'stale after 7 days',
      'regressed by 5 points',
      'at most 60 deliveries a minute',
    ]);
  });
});
