import { afterEach, describe, expect, it } from 'vitest';
import { statusLabel, statusTone } from '../logic/timeline';
import { render, type Rendered } from '../test/render';
import { StatusBadge } from './StatusBadge';

let r: Rendered | null = null;

afterEach(async () => {
  await r?.unmount();
  r = null;
});

describe('StatusBadge', () => {
  it('labels the deploy states for a person and shows them as needing someone', async () => {
    r = await render(<StatusBadge status="DEPLOY_UNCONFIRMED" testId="badge" />);
    const badge = r.byTestId('badge');
    expect(badge.textContent).toBe('Merged, deployment not confirmed');
    expect(badge.dataset.status).toBe('DEPLOY_UNCONFIRMED');
    expect(badge.className).toContain('badge-failure');
    expect(statusLabel('DEPLOY_FAILED')).toBe('Merged, deployment failed');
    expect(statusTone('DEPLOY_FAILED')).toBe('failure');
    expect(statusTone('MERGED')).toBe('progress');
  });
});
