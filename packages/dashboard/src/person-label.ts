import type { Person } from '@org/audit-client/sdk';

/** A person as the pickers show them: their name and email, or their email alone. */
export const personLabel = (person: Person): string => (person.name ? `${person.name} (${person.email})` : person.email);
