// `audit-client controls`: the frameworks' controls with their hosts passing, failing and unknown, and the import of
// a control mapping file (CSV).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Control, ControlImportResult, ControlReport } from './generated/types.gen.js';
import { admin, adminCommand, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, printable } from './admin-output.js';
import { EXIT } from './cli-exit-codes.js';
import { processSources, UsageError } from './cli-settings.js';

/** Adds `controls list` and `controls import`. */
export function addControlCommands(program: Command): void {
  const controls = program.command('controls').description('frameworks (CIS, ISO27001, …) mapped to Lynis test ids and policy rules');
  adminCommand(controls, 'list', 'list the frameworks; with --framework, its controls with their hosts passing, failing and unknown')
    .option('--framework <name>', 'the framework whose controls to list (any case)')
    .action(
      admin<[OutputFlags & { framework?: string }]>(async (client, { json, framework }) => {
        const report = await client.listControls({ framework });
        if (framework !== undefined && report.framework === null && !json) {
          process.stderr.write(
            `No framework named ${printable(framework)}; known: ${report.frameworks.map((known) => printable(known.name)).join(', ') || 'none'}\n`,
          );
          return EXIT.notFound;
        }
        return show({ json }, report, formatControlReport);
      }),
    );
  adminCommand(controls, 'import', 'import a control mapping file (CSV: framework,control_id,title,test_ids,rule_ids), replacing the frameworks it names')
    .argument('<file>', 'the mapping file; - for stdin')
    .action(
      admin<[string, OutputFlags]>(async (client, file, options) => show(options, await client.importControls(await readMappingFile(file)), formatImport)),
    );
}

/** The mapping file's text; the server checks what it holds. */
async function readMappingFile(file: string): Promise<string> {
  if (file === '-') return processSources.readStdin();
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`Cannot read the mapping file ${file}: ${error.code ?? error.message}`);
  });
}

const formatImport = (result: ControlImportResult) =>
  `Imported ${result.controls} control${result.controls === 1 ? '' : 's'} of ${result.frameworks.join(', ')}\n`;

/** The frameworks, or the controls of the one asked for with their hosts and, for those failing, the first hosts. */
export function formatControlReport(report: ControlReport): string {
  if (report.framework === null) {
    if (report.frameworks.length === 0) return 'No frameworks: import a mapping file (controls import FILE) or name controls on policy rules.\n';
    return formatTable<ControlReport['frameworks'][number]>(
      [
        ['FRAMEWORK', (framework) => framework.name],
        ['CONTROLS', (framework) => framework.controls],
      ],
      report.frameworks,
    );
  }
  if (report.controls.length === 0) return `No controls in ${report.framework}.\n`;
  return formatTable<Control>(
    [
      ['CONTROL', (control) => control.controlId],
      ['PASSING', (control) => control.hosts.passing],
      ['FAILING', (control) => control.hosts.failing],
      ['UNKNOWN', (control) => control.hosts.unknown],
      ['FAILING HOSTS', (control) => control.failingHosts.map((host) => host.hostname ?? host.hostRecordId).join(' ') || null],
      ['TITLE', (control) => control.title],
    ],
    report.controls,
  );
}
