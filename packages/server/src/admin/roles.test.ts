import { describe, expect, it } from 'vitest';
import { ADMIN_OPERATION_ROLES } from '../generated/admin-operations.gen.js';
import { roleAllows } from '../people/roles.js';
import { operationsWithoutARole, requiredRole } from './roles.js';

describe('admin roles', () => {
  it('orders the roles: each may do what the ones below it may, never more', () => {
    expect(roleAllows('viewer', 'viewer')).toBe(true);
    expect(roleAllows('viewer', 'operator')).toBe(false);
    expect(roleAllows('operator', 'viewer')).toBe(true);
    expect(roleAllows('operator', 'admin')).toBe(false);
    expect(roleAllows('admin', 'operator')).toBe(true);
  });

  it("reads each operation's role from the contract's table, and none for an unknown operation", () => {
    expect(requiredRole('listHosts')).toBe('viewer');
    expect(requiredRole('createWaiver')).toBe('operator');
    expect(requiredRole('createLicenseKey')).toBe('admin');
    expect(requiredRole('toString')).toBeUndefined();
    expect(requiredRole('newOperation')).toBeUndefined();
  });

  it('names the operations the API must not be built with: no role, an unknown one, or one the table disagrees with', () => {
    const listed = Object.entries(ADMIN_OPERATION_ROLES).map(([operationId, role]) => ({ operationId, 'x-required-role': role }));
    expect(operationsWithoutARole(listed)).toEqual([]);
    expect(
      operationsWithoutARole([
        { operationId: 'listHosts' },
        { operationId: 'createLicenseKey', 'x-required-role': 'viewer' },
        { operationId: 'newOperation', 'x-required-role': 'viewer' },
        { operationId: 'getHost', 'x-required-role': 'viewer' },
      ] as { operationId: string }[]),
    ).toEqual(['listHosts', 'createLicenseKey', 'newOperation']);
  });
});
