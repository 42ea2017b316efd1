import type { ApiFailure, ApiResult } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';

/** How an answered action reads: done, worth knowing (nothing changed), or needs attention. */
export type Tone = 'success' | 'info' | 'warning';

/** The answer to an operator action: its message and code, or the error to quote. */
export type ActionOutcome =
  | { ok: true; code: string; message: string; extra?: string; tone: Tone; traceId?: string | null }
  | { ok: false; error: ApiFailure };

export function outcomeOf<T>(
  result: ApiResult<T>,
  extra?: (data: T) => string | undefined,
  tone?: (code: string, data: T) => Tone,
): ActionOutcome {
  if (!result.ok) return { ok: false, error: result };
  return {
    ok: true,
    code: result.code,
    message: result.message,
    extra: extra?.(result.data),
    tone: tone?.(result.code, result.data) ?? 'success',
  };
}

/** A refusal that only says nothing was done (e.g. ALREADY_SETTLED): shown as information, not as a failure. */
export function informational(error: ApiFailure, extra?: string): ActionOutcome {
  return { ok: true, code: error.code, message: error.message, extra, tone: 'info', traceId: error.traceId };
}

const TONE_CLASS: Record<Tone, string> = {
  success: 'notice notice-success',
  info: 'notice',
  warning: 'notice notice-warning',
};

export function ActionResult({ outcome, testId = 'action-result' }: { outcome: ActionOutcome | null; testId?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {outcome?.ok ? (
        <p className={TONE_CLASS[outcome.tone]} data-code={outcome.code} data-tone={outcome.tone}>
          {outcome.message || 'Done.'} <span className="muted">({outcome.code})</span>
          {outcome.extra ? <> {outcome.extra}</> : null}
          {outcome.traceId ? <span className="muted small"> Reference: {outcome.traceId}</span> : null}
        </p>
      ) : null}
      {outcome && !outcome.ok ? <ErrorNotice error={outcome.error} title="The action failed." /> : null}
    </div>
  );
}
