// Exports come from the admin API, which wants the bearer token: a plain link cannot send it, so the page fetches the
// export and hands it to the browser as a file. The browser holds the whole export in memory (a Blob) until it is
// saved; the server streams it, but the page cannot, which is fine for the sizes a browser tab handles.
import type { ExportHostsData } from '@org/audit-client/sdk';
import { failureOf } from './api.js';

/** The formats every export comes in, as the contract names them. */
export type ExportFormat = NonNullable<NonNullable<ExportHostsData['query']>['format']>;

/** What a generated SDK call resolves with when asked to parse the answer as a Blob (`parseAs: 'blob'`). */
export type BlobCall = Promise<{ data?: unknown; error?: unknown; response?: Response }>;

/**
 * Saves the answer of an export call as a file, named as the server's `content-disposition` says (else
 * `fallbackName`), and returns the name; a failed call throws its {@link ApiError}.
 */
export async function saveExport(call: BlobCall, fallbackName: string): Promise<string> {
  const { data: body, error, response } = await call;
  if (!response?.ok || !(body instanceof Blob)) throw failureOf(response, error);
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  const url = URL.createObjectURL(body);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the object URL after the click returns: let go of the Blob once the download surely began.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
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
