import type { Person } from '@org/audit-client/sdk';
import { personLabel } from '../person-label.js';

export interface PersonFieldProps {
  id: string;
  label: string;
  /** The people to choose from; undefined when the list could not be read, and a person's id is typed instead. */
  people: Person[] | undefined;
  value: string;
  onChange(userId: string): void;
  /** The choice of no one in particular (e.g. "Me"), when the field may be left empty. */
  blank?: string;
}

/** A person, picked from the people list by name and email, or given by their account id where the list could not be read. */
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
          The list of people could not be read: give their account id (an admin sees it on the People page).
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
            {personLabel(person)}
          </option>
        ))}
      </select>
    </div>
  );
}
