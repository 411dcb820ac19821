import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { listFacets, type Client, type FacetField, type FacetValue } from '@org/audit-client/sdk';
import { ApiError, data } from '../api.js';
import { nextActive, suggestionText } from '../suggestions.js';

/** How long typing must pause before the server is asked for suggestions. */
const SUGGEST_DELAY_MS = 150;
/** Most suggestions shown. */
const MAX_SUGGESTIONS = 10;

export interface SuggestInputProps {
  id: string;
  /** The field whose known values are suggested (`listFacets`' `field`). */
  field: FacetField;
  value: string;
  onChange(text: string): void;
  /** A suggestion picked, instead of `onChange` with its {@link suggestionText} (for a value kept apart from the text, a key's id). */
  onPick?(suggestion: FacetValue): void;
  placeholder?: string;
  className?: string;
  client: Client;
  onUnauthorized(): void;
}

/**
 * A text input that suggests the values the fleet has (with how many hosts carry each) as the user types: an ARIA
 * combobox with a list box. Arrow keys move through the suggestions, Enter takes the one marked (else submits the
 * form as usual), Escape closes the list; a click takes one too. Values are shown as text only.
 */
export function SuggestInput({ id, field, value, onChange, onPick, placeholder, className, client, onUnauthorized }: SuggestInputProps) {
  const listId = `${useId()}-suggestions`;
  const [typed, setTyped] = useState(false);
  const suggestions = useSuggestions(client, field, value, typed, onUnauthorized);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const shown = open && typed && suggestions.length > 0;

  const pick = (suggestion: FacetValue) => {
    if (onPick) onPick(suggestion);
    else onChange(suggestionText(field, suggestion));
    setOpen(false);
    setActive(-1);
  };
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = (step: 1 | -1) => {
      event.preventDefault();
      setOpen(true);
      setTyped(true);
      setActive(nextActive(active, step, suggestions.length));
    };
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if (event.key === 'Enter' && shown && suggestions[active]) {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="suggest">
      <input
        id={id}
        className={className}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          onChange(event.target.value);
          setTyped(true);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={keyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" className="suggestions" hidden={!shown} aria-label="Suggestions">
        {shown &&
          suggestions.map((suggestion, index) => (
            <li
              key={suggestion.value}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Before the input's blur: the click must not close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(suggestion);
              }}
            >
              <span className="suggestion-value">{suggestionText(field, suggestion)}</span>
              <span className="suggestion-count">{suggestion.hosts === 1 ? '1 host' : `${suggestion.hosts.toLocaleString('en')} hosts`}</span>
            </li>
          ))}
      </ul>
    </div>
  );
}

/**
 * The known values of `field` containing `text`, most hosts first, asked once typing pauses; none until the user
 * typed (a filled-in form asks nothing). An answer overtaken by newer typing is dropped; a failure shows none.
 */
function useSuggestions(client: Client, field: FacetField, text: string, typed: boolean, onUnauthorized: () => void): FacetValue[] {
  const [suggestions, setSuggestions] = useState<FacetValue[]>([]);
  useEffect(() => {
    if (!typed) return;
    let current = true;
    const timer = setTimeout(() => {
      const q = text.trim() || undefined;
      data(listFacets({ client, query: { field, q, limit: MAX_SUGGESTIONS } })).then(
        (facets) => current && setSuggestions(facets[field]),
        (error: unknown) => {
          if (!current) return;
          if (error instanceof ApiError && error.status === 401) onUnauthorized();
          setSuggestions([]);
        },
      );
    }, SUGGEST_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, field, text, typed]); // eslint-disable-line react-hooks/exhaustive-deps -- onUnauthorized is the page's callback, not what is asked
  return suggestions;
}
