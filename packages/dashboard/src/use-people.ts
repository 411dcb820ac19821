import { useEffect, useState } from 'react';
import { listUsers, type Client, type User } from '@org/audit-client/sdk';
import { data } from './api.js';
import { useCan } from './permissions.js';

/**
 * The people who may sign in, to pick an owner or approver from, for a role that may list them (admin); undefined
 * for the others (who give a person's id instead) and until loaded, or when the list could not be loaded.
 */
export function usePeople(client: Client): User[] | undefined {
  const mayList = useCan('listUsers');
  const [people, setPeople] = useState<User[]>();
  useEffect(() => {
    if (!mayList) return;
    let current = true;
    data(listUsers({ client })).then(
      (list) => current && setPeople(list.items.filter((user) => !user.disabled)),
      () => current && setPeople(undefined),
    );
    return () => {
      current = false;
    };
  }, [client, mayList]);
  return mayList ? people : undefined;
}
