import { checkGitLabSetup } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { useRefreshing } from '../logic/hooks';

/** The check reads GitLab for every catalog project: looked at again every 10 min, or on request. */
export const GITLAB_CHECK_REFRESH_MS = 600_000;

/**
 * The GitLab setup check's findings: what in each catalog project's settings will stop the service (a bot
 * without merge rights, merge trains, ...), how badly and what to do. Empty when nothing was found.
 */
export function GitLabCheckPanel() {
  const { data, error, loadedAt, reload } = useRefreshing(['gitlab-check'], checkGitLabSetup, GITLAB_CHECK_REFRESH_MS);
  const findings = data?.findings ?? [];

  return (
    <section aria-labelledby="gitlab-check-title" className="subsection" data-testid="ops-gitlab-check">
      <h2 id="gitlab-check-title">GitLab setup</h2>
      {!loadedAt && !error ? <p className="muted">Reading the projects' settings…</p> : null}
      {error ? (
        <p className="muted" data-testid="ops-gitlab-check-error" data-code={error.code}>
          Could not run the setup check ({error.code}).
        </p>
      ) : null}
      {loadedAt && !error && findings.length === 0 ? (
        <p className="muted" data-testid="ops-gitlab-check-none">
          Nothing in the catalog projects' GitLab settings stops the service.
        </p>
      ) : null}
      {findings.length > 0 ? (
        <DataTable columns={['Project', 'Severity', 'What', 'Why', 'To do']} testId="ops-gitlab-check-table">
          {findings.map((f) => (
            <tr key={`${f.project}/${f.what}`} data-testid="ops-gitlab-check-row" data-severity={f.severity}>
              <td>
                <code>{f.project}</code>
              </td>
              <td>{f.severity === 'BLOCKS' ? 'blocks' : 'warns'}</td>
              <td>
                <code>{f.what}</code>
              </td>
              <td>{f.why}</td>
              <td>{f.action}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <button type="button" onClick={reload} data-testid="ops-gitlab-check-again">
        Check again
      </button>
    </section>
  );
}
