// A control mapping file (CSV: framework, control id, title, test ids, rule ids) read and checked line by line: a
// file with any bad line is refused whole, each bad line named by its number.
import { CsvError, parse } from 'csv-parse/sync';
import { DomainError } from '../errors/domain-error.js';

/** One control as a mapping file gives it. */
export interface MappedControl {
  framework: string;
  controlId: string;
  title: string | null;
  testIds: string[];
  ruleIds: string[];
}

/** The header a mapping file starts with. */
export const CONTROL_FILE_HEADER = ['framework', 'control_id', 'title', 'test_ids', 'rule_ids'] as const;
/** Largest mapping file (the contract's `maxLength`). */
export const MAX_CONTROL_FILE_BYTES = 1024 * 1024;
/** Most controls one file may hold. */
export const MAX_CONTROLS = 5000;
const MAX_TITLE = 500;
/** Most bad lines named in one refusal: the rest are counted. */
const MAX_LINE_ERRORS = 50;

// The contract's `FrameworkName`, `RuleId` and `TestId`, and a control id as a rule's `ControlRef` can name it.
/* eslint-disable no-control-regex -- control characters are what these refuse */
const FRAMEWORK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const RULE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const TEST_ID = /^[^\u0000-\u001F\u007F]{1,64}$/;
const CONTROL_ID = /^[^\s\u0000-\u001F\u007F]{1,64}$/;
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;
/* eslint-enable no-control-regex -- only these */

/** Ids in a cell, separated by spaces or `;`. */
const idsOf = (cell: string) => cell.split(/[\s;]+/).filter((id) => id !== '');

/**
 * The controls of a mapping file; a {@link DomainError} (`invalid`) naming each bad line when any is: the header,
 * a framework name, an empty or long control id, a test id or rule id of the wrong shape, a control given twice, a
 * framework spelled two ways, or more than {@link MAX_CONTROLS} controls.
 */
export function parseControlFile(text: string): MappedControl[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_CONTROL_FILE_BYTES) throw new DomainError('invalid', `The file is larger than ${MAX_CONTROL_FILE_BYTES} bytes`);
  const records = readRecords(text);
  const [header, ...rows] = records;
  if (!header || header.cells.map((cell) => cell.toLowerCase()).join(',') !== CONTROL_FILE_HEADER.join(',')) {
    throw new DomainError('invalid', `line ${header?.line ?? 1}: the header must be ${CONTROL_FILE_HEADER.join(',')}`);
  }
  if (rows.length === 0) throw new DomainError('invalid', 'The file has no controls');
  if (rows.length > MAX_CONTROLS) throw new DomainError('invalid', `The file has ${rows.length} controls; at most ${MAX_CONTROLS} are taken`);
  const errors: string[] = [];
  const controls: MappedControl[] = [];
  // By framework lowered: its spelling, and the line of each control id.
  const frameworks = new Map<string, { spelling: string; lines: Map<string, number> }>();
  for (const { line, cells } of rows) {
    const problems = lineProblems(cells);
    const [framework = '', controlId = '', title = '', testIds = '', ruleIds = ''] = cells;
    const known = frameworks.get(framework.toLowerCase());
    if (problems.length === 0 && known) {
      if (known.spelling !== framework) problems.push(`framework ${framework} is spelled ${known.spelling} on an earlier line`);
      const earlier = known.lines.get(controlId);
      if (earlier !== undefined) problems.push(`control ${framework} ${controlId} is given on line ${earlier} too`);
    }
    if (problems.length > 0) {
      errors.push(`line ${line}: ${problems.join(', ')}`);
      continue;
    }
    const entry = known ?? { spelling: framework, lines: new Map<string, number>() };
    entry.lines.set(controlId, line);
    frameworks.set(framework.toLowerCase(), entry);
    controls.push({ framework, controlId, title: title === '' ? null : title, testIds: unique(idsOf(testIds)), ruleIds: unique(idsOf(ruleIds)) });
  }
  if (errors.length > 0) {
    const more = errors.length > MAX_LINE_ERRORS ? `; and ${errors.length - MAX_LINE_ERRORS} more bad lines` : '';
    throw new DomainError('invalid', `The mapping file has bad lines: ${errors.slice(0, MAX_LINE_ERRORS).join('; ')}${more}`);
  }
  return controls;
}

/** The file's records with the line each starts on; a file CSV cannot read (an unclosed quote) is refused at its line. */
function readRecords(text: string): { line: number; cells: string[] }[] {
  try {
    // With `info`, each record comes with where it was read (csv-parse's types do not say so).
    const records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    // `lines` is where the record ends; a quoted cell can run over lines, so count back its line breaks.
    return records.map(({ record, info }) => ({ line: info.lines - lineBreaks(record), cells: record }));
  } catch (error) {
    if (error instanceof CsvError) throw new DomainError('invalid', `The file is not valid CSV: ${error.message}`);
    throw error;
  }
}

const lineBreaks = (cells: string[]) => cells.reduce((count, cell) => count + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);

/** What is wrong with one line's cells, in words; none when it is a good control. */
function lineProblems(cells: string[]): string[] {
  if (cells.length !== CONTROL_FILE_HEADER.length) return [`${cells.length} cells where ${CONTROL_FILE_HEADER.length} are expected`];
  const [framework, controlId, title, testIds, ruleIds] = cells as [string, string, string, string, string];
  const problems: string[] = [];
  if (!FRAMEWORK_NAME.test(framework)) problems.push('the framework must be 1 to 40 letters, digits, dots, dashes or underscores');
  if (!CONTROL_ID.test(controlId)) problems.push('the control id must be 1 to 64 characters without spaces');
  if (title.length > MAX_TITLE || CONTROL_CHARACTERS.test(title)) problems.push(`the title must be at most ${MAX_TITLE} characters, none a control character`);
  const badTests = idsOf(testIds).filter((id) => !TEST_ID.test(id));
  if (badTests.length > 0) problems.push(`not a Lynis test id: ${badTests.map((id) => JSON.stringify(id)).join(', ')}`);
  const badRules = idsOf(ruleIds).filter((id) => !RULE_ID.test(id));
  if (badRules.length > 0) problems.push(`not a rule id (lower-case letters, digits and dashes): ${badRules.map((id) => JSON.stringify(id)).join(', ')}`);
  return problems;
}

const unique = (ids: string[]) => [...new Set(ids)];
