import { getOverview } from '../../api/endpoints';
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
  const { data, error, loadedAt } = useRefreshing(['overview'], getOverview, OVERVIEW_REFRESH_MS);
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
