// The server's mail settings (`--smtp-url`, `--mail-from`), checked at start.

/** The server's mail settings (`--smtp-url`, `--mail-from`). */
export interface MailSettings {
  smtpUrl: string;
  from: string;
}

/** Why `--smtp-url` cannot be used, or undefined when it can: an smtp:// or smtps:// URL with a host. */
export function smtpUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password: it is not repeated.
    return 'must be a URL: smtp://[user:password@]host[:port] or smtps://…';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start with smtp:// or smtps://';
  if (url.hostname === '') return 'must name the SMTP server: smtp://host[:port]';
  return undefined;
}
