import { useMemo } from 'react';
import { getOverview } from '../../api/endpoints';
import type { Overview } from '../../api/types';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeading } from '../../components/PageHeading';
import { formatDateTime } from '../../logic/format';
import { useRefreshing } from '../../logic/hooks';
import { OVERVIEW_PANELS, type OverviewPanelEntry } from './panels';

/** How often the overview looks again while the page is visible. */
export const OVERVIEW_REFRESH_MS = 15_000;

/**
 * The console's landing page: GET /ops/overview, refreshed every 15 s while visible (and at once when the tab
 * shows again), rendered by the panels of `OVERVIEW_PANELS` (or those given).
 */
export function OverviewPage({ panels = OVERVIEW_PANELS }: { panels?: readonly OverviewPanelEntry[] }) {
  const { data: answer, error, loadedAt } = useRefreshing(['overview'], getOverview, OVERVIEW_REFRESH_MS);
  // the time this answer first arrived (recomputed only for a new answer): a 304 keeps the answer, the same object,
  // and moves loadedAt only
  const arrivedAt = useMemo(() => loadedAt?.getTime() ?? 0, [answer]);
  const data = useMemo(() => (answer ? aged(answer, (loadedAt?.getTime() ?? arrivedAt) - arrivedAt) : null), [answer, loadedAt, arrivedAt]);
  const now = data ? new Date(data.at) : new Date();
  return (
    <section className="panel" data-testid="ops-overview-page">
      <PageHeading>Operations overview</PageHeading>
      <p className="muted small" role="status" aria-live="polite" data-testid="overview-as-of">
        {loadedAt ? `As of ${formatDateTime(data?.at)}; updates every ${OVERVIEW_REFRESH_MS / 1000} s.` : ''}
      </p>
      {error ? <ErrorNotice error={error} title={data ? 'Could not refresh; showing the last answer.' : 'Could not load the overview.'} /> : null}
      {!data && !error ? <Loading label="Loading the overview…" /> : null}
      {data ? (
        <div className="overview-grid">
          {panels.map(({ key, Panel }) => (
            <Panel key={key} overview={data} now={now} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The answer as of `elapsedMs` later: a 304 of the overview (its ETag covers the content, not `at` nor the ages)
 * says that only time has passed since the answer kept, so its `at` and the waits' ages move on by that time.
 */
export function aged(overview: Overview, elapsedMs: number): Overview {
  if (elapsedMs <= 0) return overview;
  const seconds = Math.round(elapsedMs / 1000);
  return {
    ...overview,
    at: new Date(Date.parse(overview.at) + elapsedMs).toISOString(),
    waiting: overview.waiting.map((w) => ({ ...w, oldestAgeSeconds: w.oldestAgeSeconds + seconds })),
  };
}
