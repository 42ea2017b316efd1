import { useId, type ReactNode } from 'react';
import { DataTable } from '../DataTable';

export interface HourCount {
  start: string;
  completed: number;
  failed: number;
}

export interface HourlyChartProps {
  title: string;
  hours: HourCount[];
  completedHref?: string;
  failedHref?: string;
  link?: (href: string, children: ReactNode, label: string) => ReactNode;
  testId?: string;
}

const HEIGHT = 120;
const SLOT = 12;

function hourLabel(start: string): string {
  const date = new Date(start);
  if (Number.isNaN(date.getTime())) return start;
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** "Completions and failures per hour, last 24 hours: 12 completed, 2 failed; most in one hour: 5 at 14:00." */
export function hourlySummary(title: string, hours: HourCount[]): string {
  const completed = hours.reduce((n, h) => n + h.completed, 0);
  const failed = hours.reduce((n, h) => n + h.failed, 0);
  const busiest = hours.reduce<HourCount | null>((best, h) => (best && best.completed + best.failed >= h.completed + h.failed ? best : h), null);
  const peak = busiest && busiest.completed + busiest.failed > 0 ? `; busiest hour ${hourLabel(busiest.start)}` : '';
  return `${title}: ${completed} completed, ${failed} failed${peak}.`;
}

/**
 * Completions and failures per hour as paired columns in plain SVG, with a one-sentence text alternative and the
 * numbers of every hour in a table (each total links to its list when an href is given).
 */
export function HourlyChart({ title, hours, completedHref, failedHref, link, testId }: HourlyChartProps) {
  const id = useId();
  const max = Math.max(1, ...hours.map((h) => Math.max(h.completed, h.failed)));
  const width = Math.max(1, hours.length) * SLOT;
  const scale = (n: number) => (n === 0 ? 0 : Math.max(2, (n / max) * (HEIGHT - 4)));
  const anchor = link ?? ((href: string, children: ReactNode, label: string) => <a href={href} aria-label={label}>{children}</a>);
  // the link's name starts with its visible number (WCAG 2.5.3, axe label-content-name-mismatch): "5 completed requests"
  const total = (n: number, href: string | undefined, label: string) => (href ? anchor(href, String(n), `${n} ${label}`) : n);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <svg className="chart-svg chart-hours" role="img" aria-labelledby={`${id}-title ${id}-summary`} viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none" height={HEIGHT}>
        <desc id={`${id}-summary`}>{hourlySummary(title, hours)}</desc>
        {hours.map((h, i) => (
          <g key={h.start} data-start={h.start}>
            <rect className="bar bar-success" x={i * SLOT + 1} width={SLOT / 2 - 1} y={HEIGHT - scale(h.completed)} height={scale(h.completed)} />
            <rect className="bar bar-failure" x={i * SLOT + SLOT / 2} width={SLOT / 2 - 1} y={HEIGHT - scale(h.failed)} height={scale(h.failed)} />
          </g>
        ))}
      </svg>
      <p className="chart-legend muted small">
        <span className="legend legend-success" aria-hidden="true" /> completed{' '}
        <span className="legend legend-failure" aria-hidden="true" /> failed; oldest hour on the left.
      </p>
      <p className="chart-totals" data-testid={testId ? `${testId}-totals` : undefined}>
        In 24 hours:{' '}
        {total(hours.reduce((n, h) => n + h.completed, 0), completedHref, 'completed requests')} completed,{' '}
        {total(hours.reduce((n, h) => n + h.failed, 0), failedHref, 'failed requests')} failed.
      </p>
      <details className="chart-details">
        <summary>Every hour as a table</summary>
        <DataTable columns={['Hour from', { label: 'Completed', num: true }, { label: 'Failed', num: true }]} className="chart-table">
          {hours.map((h) => (
            <tr key={h.start} data-testid={testId ? `${testId}-row` : undefined} data-start={h.start}>
              <th scope="row">{hourLabel(h.start)}</th>
              <td className="num">{h.completed}</td>
              <td className="num">{h.failed}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
