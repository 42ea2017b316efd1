import type { ApiFailure } from '../api/client';

export interface ErrorNoticeProps {
  error: ApiFailure;
  /** A short lead-in, e.g. "Could not load your records". */
  title?: string;
  onRetry?: () => void;
  testId?: string;
}

/**
 * An error as a person reads it: the message, the code, and the traceId to quote to support.
 * Never the raw answer.
 */
export function ErrorNotice({ error, title, onRetry, testId = 'error' }: ErrorNoticeProps) {
  if (error.kind === 'aborted') return null;
  return (
    <div className="notice notice-error" role="alert" data-testid={testId} data-code={error.code}>
      {title ? <p className="notice-title">{title}</p> : null}
      <p data-testid="error-message">{error.message}</p>
      <p className="notice-meta">
        <span>
          Code: <code data-testid="error-code">{error.code}</code>
        </span>
        {error.traceId ? (
          <span>
            {' '}
            · Reference to quote: <code data-testid="error-trace-id">{error.traceId}</code>
          </span>
        ) : null}
      </p>
      {onRetry ? (
        <button type="button" className="button-secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
