import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { addAdminCommands } from './admin-commands.js';
import { createAuditClient, type AuditClient } from './audit-client.js';
import { positiveInteger, wholeNumber } from './cli-arguments.js';
import { EXIT, exitCodeFor, runWithClient } from './cli-exit-codes.js';
import { processSources, resolveConnection, UsageError, type Connection, type ConnectionFlags } from './cli-settings.js';
import { LynisProfileError } from './lynis-profile.js';
import { readReportHostIds } from './report-host-ids.js';
import { retryRateLimited, uploadBatch, type UploadOutcome } from './upload-batch.js';

/** A rate limit asking for a longer wait than this ends the retries of that file (seconds). */
const MAX_RETRY_WAIT_SECONDS = 300;

const program = new Command('audit-client')
  .description(
    'Checks a license key and uploads audit reports to an audit collection server (a stand-in for the Lynis uploader); with an admin token, lists hosts and reports and manages license keys',
  )
  .addOption(
    new Option(
      '--url <url>',
      'API URL, e.g. https://collector:8443/api/audit (or /api/v1/audit); admin commands also take the server URL, e.g. https://collector:8443',
    ).env('AUDIT_URL'),
  )
  .option(
    '--lynis-profile <file>',
    'read upload-server, license-key, upload-options, hostid and hostid2 from a Lynis profile (repeatable, later wins)',
    (file: string, files: string[] = []) => [...files, file],
  )
  .addOption(new Option('--ca <file>', "PEM certificate to trust, e.g. the server's self-signed one").env('AUDIT_CA_FILE'))
  .option('--insecure', "do not verify the server's TLS certificate")
  .addOption(new Option('--key-file <file>', 'read the license key from this file').env('AUDIT_LICENSE_KEY_FILE'))
  .option('--key-stdin', 'read the license key from standard input')
  .addOption(new Option('--admin-token-file <file>', 'read the admin token (for the admin commands) from this file').env('AUDIT_ADMIN_TOKEN_FILE'))
  .addOption(new Option('--timeout <seconds>', 'seconds to wait for each answer').default(60).argParser(positiveInteger))
  .addHelpText(
    'after',
    `
The license key is never taken from the command line: use --key-file, --key-stdin, AUDIT_LICENSE_KEY_FILE,
AUDIT_LICENSE_KEY or the profile's license-key. Nor is the admin token: use --admin-token-file,
AUDIT_ADMIN_TOKEN_FILE or AUDIT_ADMIN_TOKEN. Exit codes: 0 success, 2 license key or admin token refused,
3 request rejected, 4 still rate limited or unavailable after the retries, 5 not found, 1 anything else.`,
  )
  .showHelpAfterError();

program
  .command('license')
  .description('check the license key: prints "valid" (exit 0) or "invalid" (exit 2)')
  .action(async (_options, command: Command) => {
    const connection = await connect(command);
    await withClient(connection, command, async (client) => {
      const { valid } = await client.checkLicense(connection.licenseKey);
      process.stdout.write(valid ? 'valid\n' : 'invalid\n');
      return valid ? EXIT.ok : EXIT.refused;
    });
  });

program
  .command('upload')
  .description('check the key, then upload report files (a directory means every file in it); prints "<id>\\t<file>" per stored report')
  .argument('<paths...>', 'report files or directories')
  .addOption(new Option('--host-id <id>', "hostid for every report (default: the report's own hostid line, then the profile)").env('AUDIT_HOST_ID'))
  .addOption(new Option('--host-id2 <id>', 'hostid2 for every report (default: as for --host-id)').env('AUDIT_HOST_ID2'))
  .addOption(new Option('--encoding <encoding>', 'raw sends the report text as Lynis does; base64 sends its bytes').choices(['raw', 'base64']).default('raw'))
  .addOption(new Option('--concurrency <n>', 'uploads in flight at once').default(4).argParser(positiveInteger))
  .addOption(new Option('--retries <n>', 'further attempts per report after a 429 or 503 answer').default(3).argParser(wholeNumber))
  .action(async (paths: string[], options: UploadFlags, command: Command) => {
    const connection = await connect(command);
    const files = await reportFiles(paths);
    await withClient(connection, command, async (client) => {
      const retry = { retries: options.retries, maxRetryWaitSeconds: MAX_RETRY_WAIT_SECONDS };
      // Like Lynis: check the key first, so a refused key sends no report at all.
      const { valid } = await retryRateLimited(() => client.checkLicense(connection.licenseKey), retry);
      if (!valid) {
        process.stderr.write('The server refused the license key; nothing was uploaded.\n');
        return EXIT.refused;
      }
      const progress = process.stderr.isTTY ? (text: string) => process.stderr.write(`\r\x1b[K${text}`) : undefined;
      const outcomes = await uploadBatch(files, (file) => uploadFile(client, connection, options, file), {
        ...retry,
        concurrency: options.concurrency,
        onOutcome(outcome, finished, total) {
          progress?.('');
          if (outcome.status === 'stored') process.stdout.write(`${outcome.id}\t${outcome.item}\n`);
          if (outcome.status === 'failed') process.stderr.write(`${outcome.item}: ${outcome.error.message}\n`);
          progress?.(`${finished}/${total} reports done`);
        },
      });
      progress?.('');
      process.stderr.write(`${summary(outcomes)}\n`);
      return exitCodeOf(outcomes);
    });
  });

interface UploadFlags {
  hostId?: string;
  hostId2?: string;
  encoding: 'raw' | 'base64';
  concurrency: number;
  retries: number;
}

async function connect(command: Command): Promise<Connection> {
  const connection = await resolveConnection(command.optsWithGlobals<ConnectionFlags>(), processSources);
  for (const warning of connection.warnings) process.stderr.write(`Warning: ${warning}\n`);
  return connection;
}

/** Runs `work` with a client and sets the exit code; expected errors become one line on stderr and their code. */
async function withClient(connection: Connection, command: Command, work: (client: AuditClient) => Promise<number>) {
  const { timeout } = command.optsWithGlobals<{ timeout: number }>();
  await runWithClient(createAuditClient({ ...connection.location, ...connection.tls, timeoutMs: timeout * 1000 }), work);
}

async function uploadFile(client: AuditClient, connection: Connection, options: UploadFlags, file: string) {
  const report = await readFile(file);
  const own = readReportHostIds(report);
  const hostId = options.hostId ?? own.hostId ?? connection.profile.hostId;
  const hostId2 = options.hostId2 ?? own.hostId2 ?? connection.profile.hostId2;
  if (!hostId) throw new UsageError('no hostid: the report has no hostid line; give --host-id or a profile with hostid');
  return client.uploadReport({
    licenseKey: connection.licenseKey,
    hostId,
    ...(hostId2 ? { hostId2 } : {}),
    report,
    encoding: options.encoding,
  });
}

/** The files to upload: each file given, and every regular, non-hidden file of each directory given, by name. */
async function reportFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => {
      throw new UsageError(`No such file or directory: ${path}`);
    });
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const entries = await readdir(path, { withFileTypes: true });
    files.push(
      ...entries
        .filter((e) => e.isFile() && !e.name.startsWith('.'))
        .map((e) => join(path, e.name))
        .sort(),
    );
  }
  if (files.length === 0) throw new UsageError(`No report files in ${paths.join(', ')}`);
  return files;
}

/** The exit code of a batch: the most serious failure's, in the order 2, 1, 4, 3; 0 when every report was stored. */
function exitCodeOf(outcomes: UploadOutcome[]): number {
  const codes = new Set(outcomes.map((o) => (o.status === 'stored' ? EXIT.ok : o.status === 'skipped' ? EXIT.refused : exitCodeFor(o.error))));
  return [EXIT.refused, EXIT.failure, EXIT.rateLimited, EXIT.rejected].find((code) => codes.has(code)) ?? EXIT.ok;
}

function summary(outcomes: UploadOutcome[]): string {
  const count = (status: UploadOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  const parts = [`${count('stored')} of ${outcomes.length} reports stored`];
  if (count('failed')) parts.push(`${count('failed')} failed`);
  if (count('skipped')) parts.push(`${count('skipped')} not sent after the key was refused`);
  return parts.join(', ');
}

addAdminCommands(program);

program.parseAsync().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof LynisProfileError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`audit-client: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exitCode = EXIT.failure;
});
