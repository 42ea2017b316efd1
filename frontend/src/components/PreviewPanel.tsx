import { useEffect, useState } from 'react';
import { getPreview } from '../api/endpoints';
import type { Preview } from '../api/types';

type PreviewState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; preview: Preview } | { status: 'unavailable' };

export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * Read-only preview of the change the merge request would make. It never blocks submitting: any
 * failure (or empty data, code PREVIEW_UNAVAILABLE) only says that no preview is available.
 */
export function PreviewPanel({ targetKey, subjectId }: { targetKey: string; subjectId: string }) {
  const [state, setState] = useState<PreviewState>({ status: 'idle' });

  useEffect(() => {
    if (!targetKey) {
      setState({ status: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    const timer = setTimeout(() => {
      void getPreview(targetKey, subjectId, controller.signal).then((result) => {
        if (controller.signal.aborted) return;
        if (result.ok && result.data && typeof result.data === 'object' && result.data.filePath) {
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
  }, [targetKey, subjectId]);

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
