import { mkdir } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { MikroORM } from '@mikro-orm/sqlite';
import { parseServerConfig, readConfigFile, type ServerConfig } from './config.js';
import { openDatabase } from './database.js';
import { createKey, listKeys, revokeKey } from './key-admin.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

const program = new Command('audit-server')
  .description('Reference server collecting audit reports (Lynis compatible)')
  .addOption(new Option('--config <file>', 'JSON file of settings (names as in the README); flags and environment override it').env('CONFIG_FILE'))
  .addOption(new Option('--data-dir <dir>', 'folder for the database and the self-signed certificate (default: data)').env('DATA_DIR'))
  .showHelpAfterError();

program
  .command('start')
  .description('serve the audit API (HTTPS unless --plain-http)')
  .addOption(new Option('--host <address>', 'address to listen on (default: 0.0.0.0)').env('HOST'))
  .addOption(new Option('--port <port>', 'port to listen on (default: 8443)').env('PORT'))
  .addOption(new Option('--tls-cert <file>', 'PEM certificate (default: a self-signed one in the data directory)').env('TLS_CERT'))
  .addOption(new Option('--tls-key <file>', 'PEM private key of --tls-cert').env('TLS_KEY'))
  .option('--plain-http', 'serve plain HTTP, for running behind a TLS-terminating proxy')
  .addOption(new Option('--tool-segment <name>', 'path segment in /api/<name>/upload/ (default: audit)').env('TOOL_SEGMENT'))
  .addOption(new Option('--max-body-bytes <bytes>', 'largest request body accepted (default: 16 MiB)').env('MAX_BODY_BYTES'))
  .addOption(new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default: info)').env('LOG_LEVEL'))
  .addOption(new Option('--ops-host <address>', 'address of /healthz, /readyz and /metrics (default: 127.0.0.1)').env('OPS_HOST'))
  .addOption(new Option('--ops-port <port>', 'port of /healthz, /readyz and /metrics, or "off" (default: 9464)').env('OPS_PORT'))
  .addOption(new Option('--shutdown-timeout-seconds <seconds>', 'on SIGTERM, how long uploads in flight may take to finish (default: 30)').env('SHUTDOWN_TIMEOUT_SECONDS'))
  .action(async (_options, command: Command) => {
    const config = await loadConfig(command);
    const logger = createLogger(config.logLevel);
    const server = await startServer(config, logger);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down: finishing requests in flight');
        server.close().then(
          () => process.exit(0),
          (error: Error) => {
            logger.error({ error: { type: error.name, message: error.message.slice(0, 300) } }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  });

const keys = program.command('keys').description('manage license keys (stored only as SHA-256 hashes)');

keys
  .command('create')
  .description('create a key and print it, and only it, on stdout: it cannot be shown again')
  .option('--label <label>', 'a name for the key, e.g. the host group it is for')
  .action(async (options: { label?: string }, command: Command) => {
    await withDatabase(command, async (orm) => {
      const { id, key } = await createKey(orm, options.label);
      process.stderr.write(`Created key ${id}\n`);
      process.stdout.write(`${key}\n`);
    });
  });

keys
  .command('list')
  .description('list keys: id, label, prefix, state, created, last upload (never the key)')
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const rows = (await listKeys(orm)).map((k) => [
        k.id,
        k.label ?? '-',
        `${k.prefix}…`,
        k.state,
        k.createdAt.toISOString(),
        k.lastUploadAt?.toISOString() ?? 'never',
      ]);
      printTable(['ID', 'LABEL', 'PREFIX', 'STATE', 'CREATED', 'LAST UPLOAD'], rows);
    });
  });

keys
  .command('revoke')
  .description('revoke a key: license checks and uploads with it are refused from now on')
  .argument('<id>', 'the key id shown by keys list')
  .action(async (id: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      if (!(await revokeKey(orm, id))) throw new Error(`No key with id ${id}`);
      process.stderr.write(`Revoked key ${id}\n`);
    });
  });

async function withDatabase(command: Command, work: (orm: MikroORM) => Promise<void>): Promise<void> {
  const { dataDir } = await loadConfig(command);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const orm = await openDatabase(dataDir);
  try {
    await work(orm);
  } finally {
    await orm.close();
  }
}

/** Settings from flags and environment over the config file (if one is given) over defaults, validated. */
async function loadConfig(command: Command): Promise<ServerConfig> {
  const options = command.optsWithGlobals<{ config?: string }>();
  const file = options.config ? await readConfigFile(options.config) : undefined;
  return parseServerConfig(options, file);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) {
    process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
  }
}

program.parseAsync().catch((error: Error) => {
  process.stderr.write(`audit-server: ${error.message}\n`);
  process.exit(1);
});
