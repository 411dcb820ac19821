import type { AccessScope } from '@org/audit-client/sdk';

/** A scope in words: "customers acme, beta; groups web", or "all hosts". */
export function scopeText(scope: AccessScope): string {
  const parts = [
    scope.customers.length > 0 ? `customers ${scope.customers.join(', ')}` : '',
    scope.groups.length > 0 ? `groups ${scope.groups.join(', ')}` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('; ') : 'all hosts';
}

/** A scope from two comma-separated fields (customers, groups); blank entries dropped, both blank: all hosts. */
export function scopeFromFields(customers: string, groups: string): AccessScope {
  const entries = (text: string) => [
    ...new Set(
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  ];
  return { customers: entries(customers), groups: entries(groups) };
}
