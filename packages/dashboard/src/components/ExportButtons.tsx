import { useState } from 'react';
import { ApiError } from '../api.js';
import { saveExport, type ExportCall, type ExportFormat } from '../download.js';

/**
 * Buttons that download an export in each of `formats` (CSV and JSON unless told otherwise). `request` starts the export call (with `parseAs: 'stream'`: the
 * body goes to the file as it arrives where the browser allows it, see {@link saveExport}); a refused
 * token calls `onUnauthorized`, any other failure is shown beside the buttons.
 */
export function ExportButtons<Format extends string = ExportFormat>({
  label,
  name,
  request,
  onUnauthorized,
  formats = ['csv', 'json'] as unknown as readonly Format[],
}: {
  label: string;
  name: string;
  request(format: Format): ExportCall;
  onUnauthorized(): void;
  formats?: readonly Format[];
}) {
  const [busy, setBusy] = useState<Format>();
  const [problem, setProblem] = useState<string>();
  const download = async (format: Format) => {
    setBusy(format);
    setProblem(undefined);
    try {
      await saveExport(request(format), `${name}.${format}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      setProblem(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <div className="exports" role="group" aria-label={label}>
      <span className="muted">{label}:</span>
      {formats.map((format) => (
        <button key={format} type="button" disabled={busy !== undefined} onClick={() => void download(format)}>
          {busy === format ? 'Preparing…' : `Download ${format.toUpperCase()}`}
        </button>
      ))}
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
