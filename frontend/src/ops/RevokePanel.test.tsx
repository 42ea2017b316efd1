import { describe, expect, it } from 'vitest';
import type { Binding } from '../api/types';
import { envelope } from '../test/fetchMock';
import { view } from '../test/fixtures';
import { click, flush, type } from '../test/render';
import { testSession } from '../test/session';
import { RevokePanel } from './RevokePanel';

const { backend, render } = testSession({ at: '/console/operations/g1' });

function binding(over: Partial<Binding> = {}): Binding {
  return {
    operationId: 'g1',
    subjectId: 'ann',
    targetKey: 'db-prod-readonly',
    status: 'VALIDATED',
    expiresAt: null,
    updatedAt: '2026-12-07T10:00:00Z',
    ...over,
  };
}

describe('RevokePanel (issue 32)', () => {
  it('revokes only after a reason and a confirm step, urgently when asked, and links the removal', async () => {
    const mock = backend(() =>
      envelope('REMOVAL_ACCEPTED', view({ operationId: 'r9000000-removal', status: 'REVOKING' }), 202, {
        message: 'Revoked urgently; removal round 12 runs now.',
      }),
    );
    let reloads = 0;
    const r = await render(<RevokePanel binding={binding()} onDone={() => (reloads += 1)} />);
    await flush();
    const start = r.byTestId<HTMLButtonElement>('ops-revoke-start');
    expect(start.disabled).toBe(true);
    await type(r.byTestId<HTMLInputElement>('ops-revoke-reason'), 'left the team');
    await click(r.byTestId('ops-revoke-urgent'));
    expect(start.disabled).toBe(false);
    await click(start);
    await flush();
    expect(mock.calls).toHaveLength(0);
    expect(r.byTestId('ops-revoke-confirm').textContent).toBe("Yes, revoke ann's access to db-prod-readonly now");

    await click(r.byTestId('ops-revoke-confirm'));
    await flush();

    expect(mock.calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', '/ops/bindings/ann/db-prod-readonly/revoke?urgent=true&reason=left+the+team'],
    ]);
    expect(r.byTestId('ops-revoke-result').textContent).toContain('Revoked urgently; removal round 12 runs now.');
    expect(r.byTestId('ops-revoke-removal').querySelector('a')?.getAttribute('href')).toBe('/console/operations/r9000000-removal');
    expect(reloads).toBe(1);
  });

  it('a cancelled confirm sends nothing and a plain revocation is not urgent', async () => {
    const mock = backend(() => envelope('REMOVAL_ACCEPTED', view({ operationId: 'r2', status: 'REVOKING' }), 202));
    const r = await render(<RevokePanel binding={binding({ status: 'REMOVAL_REJECTED' })} onDone={() => undefined} />);
    await flush();
    await type(r.byTestId<HTMLInputElement>('ops-revoke-reason'), 'ticket 42');
    await click(r.byTestId('ops-revoke-start'));
    await click(r.byTestId('ops-revoke-cancel'));
    expect(mock.calls).toHaveLength(0);
    await click(r.byTestId('ops-revoke-start'));
    await click(r.byTestId('ops-revoke-confirm'));
    await flush();
    expect(mock.calls.map((c) => c.url)).toEqual(['/ops/bindings/ann/db-prod-readonly/revoke?urgent=false&reason=ticket+42']);
  });

  it('shows a refusal as it is and offers nothing on a row that is not in effect', async () => {
    backend(() => envelope('GRANT_CHANGED', null, 409, { message: 'The grant changed; look again.' }));
    const r = await render(<RevokePanel binding={binding()} onDone={() => undefined} />);
    await flush();
    await type(r.byTestId<HTMLInputElement>('ops-revoke-reason'), 'x');
    await click(r.byTestId('ops-revoke-start'));
    await click(r.byTestId('ops-revoke-confirm'));
    await flush();
    expect(r.byTestId('ops-revoke-result').textContent).toContain('The grant changed; look again.');
    expect(r.queryByTestId('ops-revoke-removal')).toBeNull();

    const other = await render(<RevokePanel binding={binding({ status: 'REVOKING' })} onDone={() => undefined} />);
    expect(other.queryByTestId('ops-revoke')).toBeNull();
  });
});
