// The imported controls (`framework_control`): an import replaces every framework its file names, in one
// transaction; frameworks are compared case-insensitively and stored as the file spells them.
import { randomUUID } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { FrameworkControlRecord } from '../database/entities.js';
import type { ReadRowOf, RowOf } from '../database/rows.js';
import { parseControlFile, type MappedControl } from './control-file.js';

/** Rows per insert: 7 columns each stays far below SQLite's bound on a statement's parameters. */
const INSERT_CHUNK = 500;

/** What an import replaced: the frameworks as the file spells them, and how many controls it holds. */
export interface ControlImport {
  frameworks: string[];
  controls: number;
}

/** Reads a mapping file and replaces the frameworks it names; a bad file is a `DomainError` naming its bad lines, and changes nothing. */
export async function importControlFile(database: Database, text: string, now = new Date()): Promise<ControlImport> {
  const controls = parseControlFile(text);
  const frameworks = [...new Set(controls.map((control) => control.framework))];
  const importedAt = sqlDialectOf(database.em).toDatabaseTime(now);
  const rows: RowOf<FrameworkControlRecord>[] = controls.map((control) => ({
    id: randomUUID(),
    framework: control.framework,
    control_id: control.controlId,
    title: control.title,
    test_ids: JSON.stringify(control.testIds),
    rule_ids: JSON.stringify(control.ruleIds),
    imported_at: importedAt,
  }));
  await database.em.getKnex().transaction(async (trx) => {
    const lowered = frameworks.map((framework) => framework.toLowerCase());
    await trx('framework_control')
      .whereRaw(`lower(framework) in (${lowered.map(() => '?').join(', ')})`, lowered)
      .delete();
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) await trx('framework_control').insert(rows.slice(start, start + INSERT_CHUNK));
  });
  return { frameworks, controls: controls.length };
}

/** Every imported control's framework (as spelled) and id. */
export async function importedControlIds(database: Database): Promise<{ framework: string; controlId: string }[]> {
  const rows: { framework: string; control_id: string }[] = await database.em.getKnex()('framework_control').select('framework', 'control_id');
  return rows.map((row) => ({ framework: row.framework, controlId: row.control_id }));
}

/** The imported controls of a framework (named in any case), by control id. */
export async function importedControls(database: Database, framework: string): Promise<MappedControl[]> {
  const rows = (await database.em
    .getKnex()('framework_control')
    .select('*')
    .whereRaw('lower(framework) = ?', [framework.toLowerCase()])
    .orderBy('control_id')) as ReadRowOf<FrameworkControlRecord>[];
  return rows.map((row) => ({
    framework: row.framework,
    controlId: row.control_id,
    title: row.title,
    testIds: JSON.parse(row.test_ids) as string[],
    ruleIds: JSON.parse(row.rule_ids) as string[],
  }));
}
