import { describe, expect, it } from 'vitest';
import { formatEnrollments } from './enrollment-commands.js';

describe('enrollments list', () => {
  it('shows each enrollment on one line: key, labels, hosts of most, state, expiry and creator; never a secret', () => {
    const text = formatEnrollments({
      items: [
        {
          id: '5169ba63-dbaf-4460-a637-bc6b29c42ffa',
          licenseKeyId: '0218b62f-95cb-4143-a35a-38f25e9f75fc',
          keyLabel: 'web fleet',
          systemGroups: ['web', 'db'],
          tags: ['prod'],
          customer: 'Acme',
          expiresAt: '2026-12-03T14:59:35.000Z',
          maxHosts: null,
          hostCount: 2,
          state: 'active',
          createdAt: '2026-11-26T14:59:35.000Z',
          createdBy: 'ops@example.org',
          revokedAt: null,
          lastUsedAt: null,
        },
      ],
    });
    const [header, row] = text.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['ID', 'KEY', 'GROUPS', 'TAGS', 'CUSTOMER', 'HOSTS', 'STATE', 'EXPIRES', 'CREATED BY']);
    expect(row!.split(/\s{2,}/)).toEqual([
      '5169ba63-dbaf-4460-a637-bc6b29c42ffa',
      'web fleet',
      'web,db',
      'prod',
      'Acme',
      '2/-',
      'active',
      '2026-12-03 14:59:35 UTC',
      'ops@example.org',
    ]);
    expect(formatEnrollments({ items: [] })).toBe('No enrollments.\n');
  });
});
