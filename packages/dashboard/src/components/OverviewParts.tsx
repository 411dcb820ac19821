// The parts the overview's sections are made of: figures as cards, titled panels, and a chart's numbers as a table.
import type { ReactNode } from 'react';
import { Table, type Column } from './Table.js';

/** One figure: its value (a link, with `href`), what it counts, and `more`, a smaller figure beside it. */
export function Card({ label, value, href, bad, more }: { label: string; value: ReactNode; href?: string; bad?: boolean; more?: ReactNode }) {
  return (
    <li className={bad ? 'card card-bad' : 'card'}>
      <span className="card-value">{href ? <a href={href}>{value}</a> : value}</span>
      <span className="card-label">{label}</span>
      {more && <span className="card-more">{more}</span>}
    </li>
  );
}

/** A titled section of the overview. */
export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** A chart's numbers as a table, folded away: for screen readers, and for anyone who wants the exact values. */
export function ChartData({ caption, headings, rows }: { caption: string; headings: string[]; rows: Array<Array<string | number>> }) {
  // The first column names the row (a day, a range); the others are numbers.
  const columns = headings.map((header, i): Column<Array<string | number>> => ({
    header,
    className: i > 0 ? 'number' : undefined,
    cellClassName: i > 0 ? 'number' : 'nowrap',
    cell: (row) => row[i],
  }));
  return (
    <details className="chart-data">
      <summary>The numbers</summary>
      <Table caption={caption} empty={<p>None.</p>} columns={columns} rows={rows} rowKey={(_, index) => index} />
    </details>
  );
}
