import { useEffect, useState } from 'react';
import { listPeople, type Client, type Person } from '@org/audit-client/sdk';
import { data } from './api.js';
import { useCan } from './permissions.js';

/**
 * The enabled people, to pick a finding's owner or approver from, for a role that may list them (operator and
 * admin); undefined for a viewer, until loaded, and when the list could not be read (the field then takes an id).
 */
export function usePeople(client: Client): Person[] | undefined {
  const mayList = useCan('listPeople');
  const [people, setPeople] = useState<Person[]>();
  useEffect(() => {
    if (!mayList) return;
    let current = true;
    data(listPeople({ client })).then(
      (list) => current && setPeople(list.items),
      () => current && setPeople(undefined),
    );
    return () => {
      current = false;
    };
  }, [client, mayList]);
  return mayList ? people : undefined;
}
