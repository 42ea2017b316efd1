import { useId, type ReactNode } from 'react';

export type BarTone = 'progress' | 'success' | 'failure' | 'ended' | 'neutral';

export interface Bar {
  key: string;
  label: string;
  value: number;
  tone?: BarTone;
  /** The list behind the number; the table shows the number as a link to it. */
  href?: string;
}

export interface BarChartProps {
  title: string;
  bars: Bar[];
  /** Renders a link (the app's router link); plain anchors when absent. */
  link?: (href: string, children: ReactNode, label: string) => ReactNode;
  testId?: string;
  /** What the numbers count, for the text alternative and the table ("requests"). */
  unit: string;
  /** The table's first column header ("State"). */
  itemHeader: string;
}

const ROW = 22;
const WIDTH = 320;

/** "Requests per state: 3 Waiting for approval, 1 Merged." (bars with 0 are left out). */
export function barSummary(title: string, bars: Bar[], unit: string): string {
  const shown = bars.filter((b) => b.value > 0);
  if (shown.length === 0) return `${title}: no ${unit}.`;
  return `${title}: ${shown.map((b) => `${b.value} ${b.label}`).join(', ')}.`;
}

/**
 * A horizontal bar chart in plain SVG with its table: the SVG is an image with a one-sentence text
 * alternative, the table below it carries every number (each a link to its list when `href` is set).
 */
export function BarChart({ title, bars, link, testId, unit, itemHeader }: BarChartProps) {
  const id = useId();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = Math.max(ROW, bars.length * ROW);
  const anchor = link ?? ((href: string, children: ReactNode, label: string) => <a href={href} aria-label={label}>{children}</a>);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <svg
        className="chart-svg"
        role="img"
        aria-labelledby={`${id}-title ${id}-summary`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        preserveAspectRatio="none"
        height={height}
      >
        <desc id={`${id}-summary`}>{barSummary(title, bars, unit)}</desc>
        {bars.map((b, i) => (
          <rect
            key={b.key}
            className={`bar bar-${b.tone ?? 'neutral'}`}
            x={0}
            y={i * ROW + 3}
            height={ROW - 6}
            width={b.value === 0 ? 0 : Math.max(2, (b.value / max) * WIDTH)}
            data-key={b.key}
            data-value={b.value}
          />
        ))}
      </svg>
      <table className="chart-table">
        <thead>
          <tr>
            <th scope="col">{itemHeader}</th>
            <th scope="col" className="num">
              {capitalise(unit)}
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.key} data-testid={testId ? `${testId}-row` : undefined} data-key={b.key} data-value={b.value}>
              <th scope="row">{b.label}</th>
              <td className="num">{b.href ? anchor(b.href, String(b.value), `${b.value} ${unit}: ${b.label}`) : b.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
