import { useId, useState } from 'react';
import { PageHeading } from '../components/PageHeading';
import { todayIso } from '../logic/format';

/** The export's address for a range of days (`to` included) and a format (docs/api.md, `GET /ops/audit/grants`). */
export function auditExportUrl(from: string, to: string, format: 'jsonl' | 'csv'): string {
  const params = new URLSearchParams({ from, to, format });
  return `/ops/audit/grants?${params.toString()}`;
}

function daysBefore(iso: string, days: number): string {
  const day = new Date(`${iso}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - days);
  return day.toISOString().slice(0, 10);
}

/**
 * The audit export (issue 32, item 6): the life of every grant requested between two days (both included) or in effect
 * at some time between them, as JSON
 * lines or CSV, downloaded by the browser (the server streams the file; at most 10,000 grants a file, the next part
 * named by its `Link` header).
 */
export function AuditPage() {
  const today = todayIso();
  const [from, setFrom] = useState(daysBefore(today, 30));
  const [to, setTo] = useState(today);
  const id = useId();
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  return (
    <section className="panel" data-testid="ops-audit-page">
      <PageHeading>Audit export</PageHeading>
      <p className="muted">
        The life of every grant requested in the range or in effect at some time in it: who asked, for whom, who approved, the merge request, when it was
        merged and in effect, and when and why it ended. At most 10,000 grants a file, oldest request first; the answer's
        <code> Link</code> header names the next part.
      </p>
      <div className="toolbar">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" value={from} onChange={(e) => setFrom(e.target.value)} data-testid="audit-from" />
        <label htmlFor={`${id}-to`}>To (included)</label>
        <input id={`${id}-to`} type="date" value={to} onChange={(e) => setTo(e.target.value)} data-testid="audit-to" />
      </div>
      {valid ? (
        <p className="toolbar">
          <a className="button" href={auditExportUrl(from, to, 'jsonl')} download data-testid="audit-download-jsonl">
            Download JSON lines
          </a>{' '}
          <a className="button button-secondary" href={auditExportUrl(from, to, 'csv')} download data-testid="audit-download-csv">
            Download CSV
          </a>
        </p>
      ) : (
        <p className="notice notice-warning" role="status" data-testid="audit-invalid">
          Choose two days, the first not after the second.
        </p>
      )}
    </section>
  );
}
