import { describe, expect, it } from 'vitest';
import { envelope } from '../test/fetchMock';
import { flush } from '../test/render';
import { testSession } from '../test/session';
import { GitLabCheckPanel } from './GitLabCheckPanel';

const { backend, render, reset } = testSession();

function finding(what: string, severity: string, action: string) {
  return { project: 'platform/access-config', what, severity, why: `why ${what}`, action };
}

describe('GitLabCheckPanel', () => {
  it('lists each finding with its project, severity, why and what to do', async () => {
    const mock = backend((c) =>
      c.url.startsWith('/ops/gitlab-check')
        ? envelope('OK', {
            blocking: 2,
            findings: [
              finding('AUTHOR_MAY_NOT_MERGE', 'BLOCKS', 'give the bot Maintainer or allow it on the protected branch main'),
              finding('APPROVALS_RESET_ON_PUSH', 'WARNS', 'nothing to do if that is intended'),
            ],
          })
        : envelope('NOT_FOUND', null, 404),
    );
    const r = await render(<GitLabCheckPanel />);
    await flush();
    const rows = r.allByTestId('ops-gitlab-check-row');
    expect(rows.map((row) => row.dataset.severity)).toEqual(['BLOCKS', 'WARNS']);
    expect(rows[0]!.textContent).toContain('platform/access-config');
    expect(rows[0]!.textContent).toContain('blocks');
    expect(rows[0]!.textContent).toContain('why AUTHOR_MAY_NOT_MERGE');
    expect(rows[0]!.textContent).toContain('allow it on the protected branch main');
    expect(mock.calls.filter((c) => c.url.startsWith('/ops/gitlab-check'))).toHaveLength(1);
  });

  it('says so when nothing was found, and shows an error it could not load', async () => {
    backend(() => envelope('OK', { blocking: 0, findings: [] }));
    let r = await render(<GitLabCheckPanel />);
    await flush();
    expect(r.byTestId('ops-gitlab-check-none').textContent).toContain('Nothing');
    await reset();
    backend(() => envelope('ACCESS_DENIED', null, 403));
    r = await render(<GitLabCheckPanel />);
    await flush();
    expect(r.byTestId('ops-gitlab-check-error').textContent).toContain('Could not run the setup check (ACCESS_DENIED).');
  });
});
