import type { User } from '@org/audit-client/sdk';

export interface PersonFieldProps {
  id: string;
  label: string;
  /** The people to choose from; undefined for a role that may not list them, who types a person's id instead. */
  people: User[] | undefined;
  value: string;
  onChange(userId: string): void;
  /** The choice of no one in particular (e.g. "Me"), when the field may be left empty. */
  blank?: string;
}

/** A person, picked from the people list by email and name, or given by their account id where the list is not readable. */
export function PersonField({ id, label, people, value, onChange, blank }: PersonFieldProps) {
  if (!people)
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="mono"
          size={40}
          value={value}
          onChange={(event) => onChange(event.target.value.trim())}
          placeholder={blank ? `Empty: ${blank.toLowerCase()}` : "The person's account id"}
          required={!blank}
          aria-describedby={`${id}-hint`}
        />
        <span id={`${id}-hint`} className="hint">
          Their account id: an admin sees it on the People page.
        </span>
      </div>
    );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} required={!blank}>
        <option value="">{blank ?? 'Choose a person'}</option>
        {people.map((person) => (
          <option key={person.id} value={person.id}>
            {person.displayName ? `${person.displayName} (${person.email})` : person.email}
          </option>
        ))}
      </select>
    </div>
  );
}
