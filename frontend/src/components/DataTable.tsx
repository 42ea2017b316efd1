import type { ReactNode } from 'react';

/** A column header: its text, or `{ label, num: true }` for a right-aligned number column. */
export type Column = string | { label: string; num: true };

export interface DataTableProps {
  /** The header row, left to right. */
  columns: readonly Column[];
  /** The body rows (`<tr>` elements). */
  children: ReactNode;
  testId?: string;
  className?: string;
  /** Said to screen readers only. */
  caption?: string;
  /** Shown under the table, inside its scroll box (e.g. "showing 20 of 41"). */
  after?: ReactNode;
}

/** A table in a scroll box that takes the keyboard focus (so a wide table scrolls without a mouse). */
export function DataTable({ columns, children, testId, className, caption, after }: DataTableProps) {
  return (
    <div className="table-wrap" tabIndex={0}>
      <table data-testid={testId} className={className}>
        {caption === undefined ? null : <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className="num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {after}
    </div>
  );
}
