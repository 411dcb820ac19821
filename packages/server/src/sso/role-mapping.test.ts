import { describe, expect, it } from 'vitest';
import { claimValues, parseRoleMap, roleFromClaim } from './role-mapping.js';

const MAP = parseRoleMap('sec-admins=admin, sec-ops=operator,auditors=viewer');

describe('the role a claim maps to', () => {
  it('reads value=role pairs, spaces around them ignored', () => {
    expect([...MAP]).toEqual([
      ['sec-admins', 'admin'],
      ['sec-ops', 'operator'],
      ['auditors', 'viewer'],
    ]);
    expect(parseRoleMap('')).toEqual(new Map());
    // A value may hold "=": the role is what follows the last one.
    expect(parseRoleMap('team=a=operator').get('team=a')).toBe('operator');
  });

  it('refuses a pair without a role, with an unknown role, or without a value', () => {
    expect(() => parseRoleMap('sec-ops')).toThrow('"sec-ops" is not value=role (role one of viewer, operator, admin)');
    expect(() => parseRoleMap('sec-ops=root')).toThrow('"sec-ops=root" is not value=role');
    expect(() => parseRoleMap('=admin')).toThrow('"=admin" is not value=role');
  });

  it('gives the highest role any value maps to', () => {
    expect(roleFromClaim(['auditors', 'sec-ops'], MAP, 'none')).toBe('operator');
    expect(roleFromClaim(['sec-admins', 'auditors', 'sec-ops'], MAP, 'none')).toBe('admin');
    expect(roleFromClaim('auditors', MAP, 'none')).toBe('viewer');
  });

  it('gives the default role when nothing maps, and none when the default is none', () => {
    expect(roleFromClaim(['marketing'], MAP, 'viewer')).toBe('viewer');
    expect(roleFromClaim(undefined, MAP, 'viewer')).toBe('viewer');
    expect(roleFromClaim(['marketing'], MAP, 'none')).toBeUndefined();
    expect(roleFromClaim([], MAP, 'none')).toBeUndefined();
    // The default is only for people nothing maps: a mapped role wins over it, even a lower one.
    expect(roleFromClaim(['auditors'], MAP, 'operator')).toBe('viewer');
    expect(roleFromClaim(['sec-admins'], MAP, 'operator')).toBe('admin');
  });

  it('reads a string or the strings of an array, nothing else', () => {
    expect(claimValues('sec-ops')).toEqual(['sec-ops']);
    expect(claimValues(['sec-ops', 7, null, 'auditors'])).toEqual(['sec-ops', 'auditors']);
    expect(claimValues({ 'sec-ops': true })).toEqual([]);
    expect(claimValues(42)).toEqual([]);
    // Case matters, as it does at the provider.
    expect(roleFromClaim('SEC-OPS', MAP, 'none')).toBeUndefined();
  });
});
