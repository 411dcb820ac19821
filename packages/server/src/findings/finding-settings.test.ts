import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '../config.js';

describe('finding acceptance settings', () => {
  it('default to another person approving and operators accepting, and take only the values they name', () => {
    expect(parseServerConfig({})).toMatchObject({ findingApproval: 'distinct', findingAcceptRole: 'operator' });
    expect(parseServerConfig({ findingApproval: 'any', findingAcceptRole: 'admin' })).toMatchObject({ findingApproval: 'any', findingAcceptRole: 'admin' });
    expect(parseServerConfig({}, { path: 'audit.json', settings: { findingAcceptRole: 'admin' } }).findingAcceptRole).toBe('admin');
    expect(() => parseServerConfig({ findingApproval: 'self' })).toThrow(/findingApproval: /);
    expect(() => parseServerConfig({ findingAcceptRole: 'viewer' })).toThrow(/findingAcceptRole: /);
  });
});
