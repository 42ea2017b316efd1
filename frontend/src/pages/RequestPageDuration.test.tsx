import { beforeEach, describe, expect, it } from 'vitest';
import type { RequestView } from '../api/types';
import { envelope } from '../test/fetchMock';
import { TARGETS, view } from '../test/fixtures';
import { flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { formatDate } from '../logic/format';
import { RequestPage } from './RequestPage';

const session = testSession();
let r: Rendered | null = null;

beforeEach(() => {
  window.history.replaceState(null, '', '/requests/op-1');
});

async function show(answer: RequestView) {
  session.backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('OK', answer)));
  r = await session.render(<RequestPage operationId="op-1" />);
  await flush();
  return r;
}

describe('RequestPage of a request for a time (issue 32 item 3)', () => {
  it('shows the duration asked and that the end is fixed when the approved change is written', async () => {
    await show(view({ duration: 'PT8H', expiresAt: null }));

    expect(r!.byTestId('asked-duration').textContent).toBe('8 hours, counted from when the approved change is written');
    expect(r!.byTestId('expires').textContent).toBe('Fixed when the approved change is written');
  });

  it('shows the end once it is fixed', async () => {
    await show(view({ duration: 'P7D', expiresAt: '2026-12-14T10:00:00Z', status: 'VALIDATED', step: 'VALIDATED' }));

    expect(r!.byTestId('asked-duration').textContent).toContain('7 days');
    expect(r!.byTestId('expires').textContent).toBe(formatDate('2026-12-14T10:00:00Z'));
  });

  it('a request of an end shows no duration and "Never" without an end', async () => {
    await show(view({}));

    expect(r!.queryByTestId('asked-duration')).toBeNull();
    expect(r!.byTestId('expires').textContent).toBe('Never');
  });
});
