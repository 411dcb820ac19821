// Exports come from the admin API, which wants the bearer token. A plain link cannot send it, and the token must never
// go into a URL (history, logs, referrers), so the page fetches the export itself, asking for the body as a stream.
// Where the browser can write a file as it arrives (the File System Access API: Chromium), the body goes straight from
// the network to the file the user picks, never held whole in the page: a filtered view of any size saves in flat
// memory. Elsewhere (or when the picker cannot open) the body is read into a Blob and saved through a link, as before.
import type { ExportHostsData } from '@org/audit-client/sdk';
import { failureOf } from './api.js';

/** The formats every export comes in, as the contract names them. */
export type ExportFormat = NonNullable<NonNullable<ExportHostsData['query']>['format']>;

/** What a generated SDK call resolves with when asked for the body as a stream (`parseAs: 'stream'`). */
export type ExportCall = Promise<{ data?: unknown; error?: unknown; response?: Response }>;

/** The part of the File System Access API used here (Chromium's `window.showSaveFilePicker`). */
interface SavePicker {
  (options: { suggestedName: string }): Promise<{ name: string; createWritable(): Promise<WritableStream<Uint8Array>> }>;
}

/**
 * Saves the answer of an export call as a file, named as the server's `content-disposition` says (else
 * `fallbackName`): streamed to the file the user picks where the browser allows it, else through a Blob. Returns the
 * name, or undefined when the user cancelled the picker; a failed call throws its {@link ApiError}.
 */
export async function saveExport(call: ExportCall, fallbackName: string): Promise<string | undefined> {
  const { data: body, error, response } = await call;
  if (!response?.ok || !(body instanceof ReadableStream)) throw failureOf(response, error);
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  const picker = (window as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (picker) {
    let file: Awaited<ReturnType<SavePicker>> | undefined;
    try {
      file = await picker({ suggestedName: name });
    } catch (refusal) {
      // Cancelled: nothing to save. Refused (the click's user activation ran out while the server answered): a Blob.
      if (refusal instanceof DOMException && refusal.name === 'AbortError') {
        await body.cancel();
        return undefined;
      }
    }
    // pipeTo closes the file when the body ends, and aborts it (the browser then drops what it wrote) when it fails.
    if (file) return body.pipeTo(await file.createWritable()).then(() => file.name);
  }
  saveBlob(await new Response(body).blob(), name);
  return name;
}

/** Hands a Blob to the browser as a download named `name`. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the object URL after the click returns: let go of the Blob once the download surely began.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The file name a `content-disposition` header gives (`filename*=UTF-8''…` before `filename="…"`), without any
 * folder part, or undefined when it names none.
 */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  let name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  if (extended) {
    try {
      name = decodeURIComponent(extended);
    } catch {
      // A broken encoding: the plain name, if any, stands.
    }
  }
  const base = name?.split(/[/\\]/).pop()?.trim();
  return base || undefined;
}
