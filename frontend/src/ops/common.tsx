import type { ApiFailure, ApiResult } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { displayValue } from '../logic/format';

/** The answer to an operator action: its message and code, or the error to quote. */
export type ActionOutcome = { ok: true; code: string; message: string; extra?: string } | { ok: false; error: ApiFailure };

export function outcomeOf<T>(result: ApiResult<T>, extra?: (data: T) => string | undefined): ActionOutcome {
  if (!result.ok) return { ok: false, error: result };
  return { ok: true, code: result.code, message: result.message, extra: extra?.(result.data) };
}

export function ActionResult({ outcome, testId = 'action-result' }: { outcome: ActionOutcome | null; testId?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {outcome?.ok ? (
        <p className="notice notice-success" data-code={outcome.code}>
          {outcome.message || 'Done.'} <span className="muted">({outcome.code})</span>
          {outcome.extra ? <> {outcome.extra}</> : null}
        </p>
      ) : null}
      {outcome && !outcome.ok ? <ErrorNotice error={outcome.error} title="The action failed." /> : null}
    </div>
  );
}

/** A table for rows whose fields are not fixed by docs/api.md (history, audit, batch members). */
export function GenericTable({ rows, testId, caption }: { rows: unknown[]; testId?: string; caption?: string }) {
  const records = rows.map((r) => (r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r }));
  const columns: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  if (records.length === 0) return <p className="muted">None.</p>;
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{displayValue(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
