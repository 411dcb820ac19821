import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-reader.test-kit.js';
import { exportStream } from './export-body.js';
import { FINDING_COLUMNS, HISTORY_COLUMNS, HOST_COLUMNS } from './fleet-exports.js';

/** What a spreadsheet reads as the start of a formula. */
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
/** Separators a spreadsheet may split a cell on, whatever separator the file was written with. */
const SEPARATORS = [',', ';'];

/** Each export's columns, with a sample row whose cells are all plain. */
const EXPORTS = {
  hosts: {
    columns: HOST_COLUMNS,
    row: {
      id: 'h',
      hostname: 'web-01',
      hostId: 'a'.repeat(40),
      keyId: 'k',
      keyLabel: 'Web servers',
      os: 'Debian',
      lynisVersion: '3.1.4',
      groups: ['web'],
      tags: ['eu'],
      customerName: 'acme',
      firstSeen: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-01-02T00:00:00.000Z',
      state: 'active',
      stateSince: '2026-01-01T00:00:00.000Z',
      reportCount: 2,
      hardeningIndex: -1,
      warnings: 0,
      suggestions: 1,
      compliance: 'compliant',
      failingRules: ['Baseline/firewall', 'Baseline/ssh'],
    },
  },
  findings: {
    columns: FINDING_COLUMNS,
    row: { kind: 'warning', testId: 'AUTH-9262', text: 'Weak', hostRecordId: 'h', hostname: 'web-01', hostId: 'a'.repeat(40) },
  },
  history: {
    columns: HISTORY_COLUMNS,
    row: { reportId: 'r', receivedAt: '2026-01-01T00:00:00.000Z', lynisVersion: '3.1.4', hardeningIndex: 56, warnings: 1, suggestions: 2 },
  },
};

async function csvOf(columns: string[], row: Record<string, unknown>): Promise<string[][]> {
  async function* rows() {
    yield row;
  }
  const csv = await text(exportStream('csv', 'x', columns, rows()).body);
  return parseCsv(csv);
}

/** Whether any piece of a cell, split on any separator, would start a formula. */
function startsAFormula(cell: string): boolean {
  return cell.split(/[,;]/).some((piece) => TRIGGERS.includes(piece[0] ?? ''));
}

describe('CSV cells', () => {
  for (const [name, { columns, row }] of Object.entries(EXPORTS)) {
    const listColumns = columns.filter((column) => Array.isArray(row[column as keyof typeof row]));
    const textColumns = columns.filter((column) => typeof row[column as keyof typeof row] === 'string');

    it(`${name}: a formula in any element of a list cell is neutralised`, async () => {
      for (const column of listColumns) {
        for (const trigger of TRIGGERS) {
          for (const position of [0, 1, 2]) {
            const list = ['ok', 'fine', 'good'];
            list[position] = `${trigger}SUM(1+1)`;
            const [, cells] = await csvOf(columns, { ...row, [column]: list });
            const cell = cells![columns.indexOf(column)]!;
            expect(startsAFormula(cell), `${column}[${position}] with ${JSON.stringify(trigger)}: ${JSON.stringify(cell)}`).toBe(false);
            expect(cell.split(';')[position]).toBe(`'${trigger}SUM(1+1)`);
          }
        }
      }
    });

    it(`${name}: a text cell starting a formula, or holding one after a separator, is neutralised`, async () => {
      for (const column of textColumns) {
        for (const trigger of TRIGGERS) {
          for (const payload of [`${trigger}HYPERLINK("x")`, ...SEPARATORS.map((separator) => `web${separator}${trigger}HYPERLINK("x")`)]) {
            const [, cells] = await csvOf(columns, { ...row, [column]: payload });
            const cell = cells![columns.indexOf(column)]!;
            expect(startsAFormula(cell), `${column} ${JSON.stringify(payload)}: ${JSON.stringify(cell)}`).toBe(false);
            expect(cell.replaceAll("'", '')).toBe(payload);
          }
        }
      }
    });

    it(`${name}: plain cells and numbers are written as they are`, async () => {
      const [header, cells] = await csvOf(columns, row);
      expect(header).toEqual(columns);
      expect(cells).toEqual(
        columns.map((column) => {
          const value: unknown = row[column as keyof typeof row];
          return Array.isArray(value) ? value.join(';') : String(value);
        }),
      );
    });
  }
});
