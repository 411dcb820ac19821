import { useState } from 'react';

/** Copies `text` to the clipboard; says so, or says to copy by hand where the browser does not allow it (plain HTTP). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'no'>();
  const copy = () =>
    navigator.clipboard?.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    ) ?? setCopied('no');
  return (
    <>
      <button type="button" onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span role="status">{copied === 'yes' ? ' Copied.' : copied === 'no' ? ' Select it and copy it by hand.' : ''}</span>
    </>
  );
}
