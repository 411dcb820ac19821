import { useState } from 'react';

/**
 * State that starts from `initial()` and starts again from it whenever `source` changes: a form that shows the
 * route's filters again when another link (a chip, Back) changes the route, while typing changes only the form.
 */
export function useStateFrom<T>(source: string | undefined, initial: () => T): [T, (value: T) => void] {
  const [state, setState] = useState(initial);
  const [shownFrom, setShownFrom] = useState(source);
  // Set during render, as React advises for state that follows a prop: no second render of stale values.
  if (shownFrom !== source) {
    setShownFrom(source);
    setState(initial());
  }
  return [state, setState];
}
