import { useEffect, useState } from 'react';
import { getPreview } from '../api/endpoints';
import type { Preview } from '../api/types';

type PreviewState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; preview: Preview } | { status: 'unavailable' };

export const PREVIEW_DEBOUNCE_MS = 400;

export interface PreviewPanelProps {
  targetKey: string;
  subjectId: string;
  /** The form's operationId: the previewed line carries it, as the merge request will. */
  operationId?: string;
  /** yyyy-mm-dd or an instant; an invalid one only makes the preview unavailable. */
  expiresAt?: string;
}

/**
 * Read-only preview of the change the merge request would make, for the form's current fields. It
 * never blocks submitting: code OK with data shows it; any failure (or PREVIEW_UNAVAILABLE with data
 * null) only says that no preview is available.
 */
export function PreviewPanel({ targetKey, subjectId, operationId, expiresAt }: PreviewPanelProps) {
  const [state, setState] = useState<PreviewState>({ status: 'idle' });

  useEffect(() => {
    if (!targetKey) {
      setState({ status: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    const timer = setTimeout(() => {
      const query = { targetKey, subjectId: subjectId || undefined, operationId, expiresAt: expiresAt || undefined };
      void getPreview(query, controller.signal).then((result) => {
        if (controller.signal.aborted) return;
        if (
          result.ok &&
          result.code !== 'PREVIEW_UNAVAILABLE' &&
          result.data &&
          typeof result.data === 'object' &&
          result.data.filePath
        ) {
          setState({ status: 'ready', preview: result.data });
        } else {
          setState({ status: 'unavailable' });
        }
      });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [targetKey, subjectId, operationId, expiresAt]);

  if (state.status === 'idle') return null;
  return (
    <section className="preview" aria-label="Preview of the change" data-testid="preview" data-preview-state={state.status}>
      <h3>Preview of the change</h3>
      {state.status === 'loading' ? <p className="muted">Loading the preview…</p> : null}
      {state.status === 'unavailable' ? (
        <p className="muted">No preview is available right now. You can still submit.</p>
      ) : null}
      {state.status === 'ready' ? (
        <>
          <p className="muted">
            <code>{state.preview.project}</code> · <code>{state.preview.filePath}</code>
          </p>
          <pre className="diff" aria-label="Lines changed">
            {state.preview.removedLine ? <span className="diff-removed">- {state.preview.removedLine}{'\n'}</span> : null}
            {state.preview.addedLine ? <span className="diff-added">+ {state.preview.addedLine}</span> : null}
            {!state.preview.removedLine && !state.preview.addedLine ? <span>(no line changes)</span> : null}
          </pre>
        </>
      ) : null}
    </section>
  );
}
