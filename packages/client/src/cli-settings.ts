import { readFile } from 'node:fs/promises';
import { lynisApiUrl, parseApiUrl, parseServerUrl, type ApiLocation } from './api-url.js';
import { parseLynisProfiles, parseUploadOptions, type LynisUploadSettings } from './lynis-profile.js';
import type { TlsOptions } from './tls-fetch.js';

/** The flags naming the server and how to trust it, after commander has applied their environment variables. */
export interface ServerFlags {
  url?: string;
  lynisProfile?: string[];
  ca?: string;
  insecure?: boolean;
}

/** The connection flags of `license` and `upload`. */
export interface ConnectionFlags extends ServerFlags {
  keyFile?: string;
  keyStdin?: boolean;
}

/** The connection flags of the admin commands. */
export interface AdminFlags extends ServerFlags {
  adminTokenFile?: string;
}

/** Where the server is and how to trust it, resolved from flags, environment and Lynis profiles. */
interface ServerSettings<Location> {
  location: Location;
  tls: TlsOptions;
  /** Host ids the profiles set, used when neither a flag nor the report names them. */
  profile: LynisUploadSettings;
  /** Things the user should know about, e.g. profile options this client does not apply. */
  warnings: string[];
}

/** Everything needed to talk to the server's audit operations. */
export interface Connection extends ServerSettings<ApiLocation> {
  licenseKey: string;
}

/** Everything needed to talk to the server's admin API: its base URL is the location. */
export interface AdminConnection extends ServerSettings<string> {
  adminToken: string;
}

/** A setting that is missing or wrong; the CLI prints the message and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Where the key and other inputs come from, so tests can supply them. */
export interface SettingsSources {
  env: NodeJS.ProcessEnv;
  readText(file: string): Promise<string>;
  readStdin(): Promise<string>;
}

/** The default sources: the process environment, files, standard input. */
export const processSources: SettingsSources = {
  env: process.env,
  readText: (file) => readFile(file, 'utf8'),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * Resolves the connection. Each setting comes from its flag, else its environment variable, else the Lynis profiles.
 * TLS trust comes from `--ca`/`--insecure` when either is given, else from the profile's `upload-options`.
 */
export async function resolveConnection(flags: ConnectionFlags, sources: SettingsSources): Promise<Connection> {
  const server = await resolveServer(flags, sources, parseApiUrl);
  return { ...server, licenseKey: await resolveKey(flags, sources, server.profile) };
}

/**
 * Resolves the admin connection: the server as for `resolveConnection`, except that the URL may also be the
 * server's base URL, and the admin token from `--admin-token-file`, `AUDIT_ADMIN_TOKEN_FILE` or `AUDIT_ADMIN_TOKEN`.
 */
export async function resolveAdminConnection(flags: AdminFlags, sources: SettingsSources): Promise<AdminConnection> {
  const server = await resolveServer(flags, sources, parseServerUrl);
  return { ...server, adminToken: await resolveAdminToken(flags, sources) };
}

/** The server's location (as `parseUrl` reads the URL) and TLS trust, and the profiles' other settings. */
async function resolveServer<Location>(flags: ServerFlags, sources: SettingsSources, parseUrl: (url: string) => Location): Promise<ServerSettings<Location>> {
  const warnings: string[] = [];
  const profileFiles = flags.lynisProfile ?? [];
  const profile = parseLynisProfiles(await Promise.all(profileFiles.map(async (name) => ({ name, text: await readOrFail(sources, name, 'Lynis profile') }))));

  const url = flags.url ?? (profile.uploadServer ? lynisApiUrl(profile.uploadServer) : undefined);
  if (!url) throw new UsageError('No server: give --url https://<host>:<port>/api/<tool>, AUDIT_URL, or a Lynis profile with upload-server');
  let location: Location;
  try {
    location = parseUrl(url);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  let tls: TlsOptions;
  if (flags.ca !== undefined || flags.insecure) {
    tls = { insecure: flags.insecure ?? false, ...(flags.ca === undefined ? {} : { ca: await readOrFail(sources, flags.ca, 'CA file') }) };
  } else {
    const options = parseUploadOptions(profile.uploadOptions);
    if (options.ignored.length > 0) warnings.push(`upload-options: ignoring ${options.ignored.join(' ')} (only -k, --insecure and --cacert apply)`);
    tls = { insecure: options.insecure, ...(options.caFile ? { ca: await readOrFail(sources, options.caFile, 'CA file of upload-options') } : {}) };
  }

  return { location, tls, profile, warnings };
}

/** The admin token from --admin-token-file, AUDIT_ADMIN_TOKEN_FILE or AUDIT_ADMIN_TOKEN, in that order; never a flag's value. */
async function resolveAdminToken(flags: AdminFlags, sources: SettingsSources): Promise<string> {
  const file = flags.adminTokenFile ?? sources.env.AUDIT_ADMIN_TOKEN_FILE;
  const token = (file ? await readOrFail(sources, file, 'admin token file') : sources.env.AUDIT_ADMIN_TOKEN)?.trim();
  if (!token) throw new UsageError('No admin token: use --admin-token-file FILE, AUDIT_ADMIN_TOKEN_FILE or AUDIT_ADMIN_TOKEN');
  return token;
}

/** The key from --key-file, --key-stdin, AUDIT_LICENSE_KEY_FILE, AUDIT_LICENSE_KEY or the profile, in that order. */
async function resolveKey(flags: ConnectionFlags, sources: SettingsSources, profile: LynisUploadSettings): Promise<string> {
  if (flags.keyFile !== undefined && flags.keyStdin) throw new UsageError('Give the key by --key-file or --key-stdin, not both');
  let key: string | undefined;
  if (flags.keyFile !== undefined) key = await readOrFail(sources, flags.keyFile, 'key file');
  else if (flags.keyStdin) key = await sources.readStdin();
  else if (sources.env.AUDIT_LICENSE_KEY_FILE) key = await readOrFail(sources, sources.env.AUDIT_LICENSE_KEY_FILE, 'key file');
  else if (sources.env.AUDIT_LICENSE_KEY) key = sources.env.AUDIT_LICENSE_KEY;
  else key = profile.licenseKey;
  key = key?.trim();
  if (!key) {
    throw new UsageError('No license key: use --key-file FILE, --key-stdin, AUDIT_LICENSE_KEY_FILE, AUDIT_LICENSE_KEY or a Lynis profile with license-key');
  }
  return key;
}

async function readOrFail(sources: SettingsSources, file: string, what: string): Promise<string> {
  try {
    return await sources.readText(file);
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
