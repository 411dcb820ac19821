import { Command, Option, type CommandOptions } from 'commander';
import { createAdminClient, type AdminClient } from './admin-client.js';
import { positiveInteger, wholeNumber } from './cli-arguments.js';
import { EXIT, runWithClient } from './cli-exit-codes.js';
import { processSources, resolveAdminConnection, UsageError, type AdminFlags } from './cli-settings.js';

// The building blocks every admin command uses (the admin and compliance command files both import them).

/** Flags every admin command has. */
export interface OutputFlags {
  json?: boolean;
}

/** Paging options; fresh objects each time, since commander keeps per-command state in them. */
export const pageOptions = {
  limit: () => new Option('--limit <n>', 'most items to show (server default 50, at most 500)').argParser(positiveInteger),
  offset: () => new Option('--offset <n>', 'items to skip, for the next page').argParser(wholeNumber),
};

/** A subcommand of `parent` that talks to the admin API: with `--json`, for tooling (`options`: e.g. the parent's default). */
export function adminCommand(parent: Command, name: string, description: string, options?: CommandOptions): Command {
  return parent.command(name, options).description(description).option('--json', "print the API's JSON answer instead of a table");
}

/** Prints `value` as JSON (`--json`) or as `format` shows it to people, and succeeds. */
export function show<T>(options: OutputFlags, value: T, format: (value: T) => string): number {
  if (options.json) return printJson(value);
  process.stdout.write(format(value));
  return EXIT.ok;
}

/** Prints the API's answer as JSON, for tooling, and succeeds. */
export function printJson(value: unknown): number {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  return EXIT.ok;
}

/** What a delete command says: a line on stderr, or with `--json`, for tooling, `{"id", "deleted": true}` (the API answers 204, no body). */
export function deleted(options: OutputFlags, thing: string, id: string): number {
  if (options.json) return printJson({ id, deleted: true });
  process.stderr.write(`Deleted ${thing} ${id}\n`);
  return EXIT.ok;
}

/**
 * The action of an admin command: resolves the server and the admin token, runs `work` with an admin client and
 * sets the exit code. Commander passes the arguments, then the options, then the command itself.
 */
export function admin<Args extends unknown[]>(work: (client: AdminClient, ...args: Args) => Promise<number>) {
  return async (...args: [...Args, Command]) => {
    const command = args.at(-1) as Command;
    const flags = command.optsWithGlobals<AdminFlags & { timeout: number }>();
    const connection = await resolveAdminConnection(flags, processSources);
    for (const warning of connection.warnings) process.stderr.write(`Warning: ${warning}\n`);
    let client: AdminClient;
    try {
      client = createAdminClient({ baseUrl: connection.location, ...connection.tls, token: connection.adminToken, timeoutMs: flags.timeout * 1000 });
    } catch (error) {
      throw new UsageError((error as Error).message); // the token's format; the message never quotes the token
    }
    await runWithClient(client, (c) => work(c, ...(args.slice(0, -1) as Args)));
  };
}
