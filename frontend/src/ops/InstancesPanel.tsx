import { getInstances } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { formatDateTime } from '../logic/format';
import { useRefreshing } from '../logic/hooks';

/** How often the panel looks again while the page is visible. */
export const INSTANCES_REFRESH_MS = 15_000;

/** "All instances run 0.5.0", "Two versions run: 0.4.0, 0.5.0 (a rolling upgrade)". */
export function versionsHeadline(versions: readonly string[]): string {
  if (versions.length === 0) return 'No instance is running.';
  if (versions.length === 1) return `Every running instance runs ${versions[0]}.`;
  return `${versions.length} versions run: ${versions.join(', ')} (a rolling upgrade, or one left behind).`;
}

const STATE_TEXT: Record<string, string> = {
  RUNNING: 'running',
  STOPPED: 'stopped',
  SILENT: 'silent (no heartbeat)',
};

/**
 * Every instance of the service with the version and commit it runs (GET /ops/instances, issue 31): what an operator
 * checks between the steps of a rolling upgrade. Self-contained: loads on open and every 15 s while visible.
 */
export function InstancesPanel() {
  const loaded = useRefreshing(['instances'], getInstances, INSTANCES_REFRESH_MS);
  const data = loaded.data;
  return (
    <section aria-labelledby="instances-title" className="subsection overview-panel overview-wide" data-testid="ops-instances">
      <h2 id="instances-title">Instances</h2>
      {!data && !loaded.error ? <p className="muted">Loading…</p> : null}
      {!data && loaded.error ? (
        <p className="muted" data-testid="ops-instances-error" data-code={loaded.error.code}>
          Could not list the instances ({loaded.error.code}).
        </p>
      ) : null}
      {data ? (
        <>
          <p data-testid="ops-instances-versions" data-mixed={String(data.mixed)}>
            <strong>{versionsHeadline(data.versions)}</strong>
          </p>
          <DataTable columns={['Instance', 'Version', 'Commit', 'State', 'Started', 'Last seen']} testId="ops-instances-table">
            {data.instances.map((i) => (
              <tr key={i.name} data-testid="ops-instance" data-name={i.name} data-state={i.state}>
                <th scope="row">
                  <code>{i.name}</code>
                </th>
                <td>{i.version}</td>
                <td>
                  <code title={i.commit}>{i.commit.slice(0, 12)}</code>
                </td>
                <td>
                  {STATE_TEXT[i.state] ?? i.state}
                  {i.stoppedAt ? ` at ${formatDateTime(i.stoppedAt)}` : ''}
                </td>
                <td>{formatDateTime(i.startedAt)}</td>
                <td>{`${formatDateTime(i.lastSeen)} (${i.secondsSinceSeen} s ago)`}</td>
              </tr>
            ))}
          </DataTable>
        </>
      ) : null}
    </section>
  );
}
