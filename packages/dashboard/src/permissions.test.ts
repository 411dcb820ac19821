import { describe, expect, it } from 'vitest';
import { can } from './permissions.js';

describe('what a role may do', () => {
  it("offers each operation to its role and the roles above, from the contract's x-required-role", () => {
    expect(['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'listHosts'))).toEqual([true, true, true]);
    expect(['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'createWaivers'))).toEqual([false, true, true]);
    expect(['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'createLicenseKey'))).toEqual([false, false, true]);
  });

  it('offers the people to pick an owner or approver from to everyone who may change findings', () => {
    expect(['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'listPeople'))).toEqual([false, true, true]);
    expect(['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'listPeople'))).toEqual(
      ['viewer', 'operator', 'admin'].map((role) => can(role as 'viewer', 'updateFinding')),
    );
  });

  it('offers nothing while the role is not known', () => {
    expect(can(undefined, 'listHosts')).toBe(false);
  });
});
