import { describe, expect, it } from 'vitest';
import type { Binding } from '../../api/types';
import { SessionProvider } from '../../session/session';
import { envelope } from '../../test/fetchMock';
import { TARGETS, view } from '../../test/fixtures';
import { click, flush, type Rendered } from '../../test/render';
import { testSession } from '../../test/session';
import { HomePage } from '../HomePage';

const { backend, render } = testSession({ at: '/' });
let r: Rendered | null = null;

const HOUR = 3_600_000;

/** The instant a date-only expiry is kept as: 00:00 UTC of the day after `daysAhead` days from today. */
function dateOnlyUntil(daysAhead: number): { day: Date; stored: string } {
  const today = new Date();
  const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + daysAhead));
  return { day, stored: new Date(day.getTime() + 24 * HOUR).toISOString() };
}

function binding(overrides: Partial<Binding>): Binding {
  return {
    subjectId: 'bob',
    targetKey: 'db-prod-readonly',
    status: 'VALIDATED',
    operationId: 'aaaaaaaa-1111-4111-8111-111111111111',
    expiresAt: null,
    updatedAt: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

const ME = { account: 'bob', verified: true, permissions: [], sandbox: false, submissionsOpen: true };

async function home(bindings: Binding[], requests: ReturnType<typeof view>[]) {
  const api = backend((call) => {
    if (call.url === '/api/me') return envelope('OK', ME);
    if (call.url === '/api/bindings') return envelope('OK', bindings);
    if (call.url.startsWith('/api/requests')) return envelope('OK', { items: requests, page: 0, size: 50, hasMore: false });
    if (call.url === '/api/targets') return envelope('OK', TARGETS);
    return envelope('PREVIEW_UNAVAILABLE', null);
  });
  r = await render(
    <SessionProvider>
      <HomePage />
    </SessionProvider>,
  );
  await flush();
  await flush();
  return api;
}

function monthDay(day: Date): string {
  const sameYear = day.getUTCFullYear() === new Date().getUTCFullYear();
  return day.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC', ...(sameYear ? {} : { year: 'numeric' }) });
}

describe('the requester home', () => {
  it('shows my access in effect with the day I chose, Renew only when the end is near, then what is pending and the catalog', async () => {
    const soon = dateOnlyUntil(2);
    const later = dateOnlyUntil(40);
    await home(
      [
        binding({ targetKey: 'db-prod-readonly', expiresAt: soon.stored }),
        binding({ targetKey: 'wiki-editors', expiresAt: later.stored, operationId: 'bbbbbbbb-2222-4222-8222-222222222222' }),
        binding({ targetKey: 'vpn-staging', expiresAt: null, operationId: 'cccccccc-3333-4333-8333-333333333333' }),
        // not access: a request under way and a refused one
        binding({ targetKey: 'dashboards-viewer', status: 'APPROVAL_SENT', operationId: 'dddddddd-4444-4444-8444-444444444444' }),
        binding({ targetKey: 'ci-runners', status: 'REJECTED', operationId: 'eeeeeeee-5555-4555-8555-555555555555' }),
      ],
      [],
    );

    const grants = r!.allByTestId('my-access-grant');
    expect(grants.map((g) => g.dataset.target)).toEqual(['db-prod-readonly', 'wiki-editors', 'vpn-staging']);
    const untils = r!.allByTestId('my-access-until').map((u) => u.textContent);
    expect(untils[0]).toMatch(new RegExp(`^until ${monthDay(soon.day)} \\(expires in (2|3) days\\)$`));
    expect(untils[0]).not.toContain(monthDay(new Date(soon.day.getTime() + 24 * HOUR)));
    expect(untils[1]).toMatch(new RegExp(`^until ${monthDay(later.day)} `));
    expect(untils[2]).toBe('no end date');
    const renewals = r!.allByTestId('home-renew');
    expect(renewals.map((b) => b.getAttribute('aria-label'))).toEqual(['Renew db-prod-readonly for bob']);
    expect(r!.byTestId('catalog')).toBeTruthy();
    expect(r!.byTestId('open-requests-empty').textContent).toBe('Nothing pending.');
  });

  it('"Renew" opens the request form for the same target and subject, saying which day the access ends', async () => {
    const soon = dateOnlyUntil(1);
    await home([binding({ subjectId: 'svc-report', expiresAt: soon.stored })], []);

    await click(r!.byTestId('home-renew'));
    await flush();

    expect(r!.byTestId<HTMLSelectElement>('field-target').value).toBe('db-prod-readonly');
    expect(r!.byTestId<HTMLInputElement>('field-subject').value).toBe('svc-report');
    expect(r!.byTestId<HTMLTextAreaElement>('field-reason').value).toBe(`Renewal of the access in effect until ${monthDay(soon.day)}`);
  });

  it('lists my open requests with who acts next, not the ended ones', async () => {
    const api = await home(
      [],
      [
        view({ operationId: 'op-approver', status: 'APPROVAL_SENT', waiting: { waitingFor: 'APPROVER', since: '2026-01-01T10:00:01Z', deadline: null, nextAttemptAt: null, checkedEverySeconds: null, failing: null } }),
        view({ operationId: 'op-person', targetKey: 'wiki-editors', status: 'HANDLE_FAILED', hint: { code: 'CONTACT_MAINTAINERS', message: 'Contact the maintainers.' }, waiting: { waitingFor: 'MAINTAINERS', since: '2026-01-01T10:00:01Z', deadline: null, nextAttemptAt: null, checkedEverySeconds: null, failing: null } }),
        view({ operationId: 'op-done', status: 'VALIDATED' }),
        view({ operationId: 'op-refused', status: 'REJECTED', hint: { code: 'CAN_REAPPLY', message: 'You can apply again.' } }),
        view({ operationId: 'op-replaced', status: null }),
      ],
    );

    const open = r!.allByTestId('open-request');
    expect(open.map((o) => o.dataset.operationId)).toEqual(['op-approver', 'op-person']);
    const next = r!.allByTestId('open-request-next');
    expect(next.map((n) => n.textContent)).toEqual(['Next: the approver', 'Next: a person (maintainers or an operator)']);
    expect(open[0]!.querySelector('a')?.getAttribute('href')).toBe('/requests/op-approver');
    expect(r!.byTestId('my-access-empty').textContent).toContain('You have no access through Changeflow yet');
    expect(api.calls.map((c) => c.url)).toContain('/api/requests?page=0&size=50');
  });

  it('says the duration a pending request asked for (issue 32 item 3)', async () => {
    await home([], [view({ operationId: 'op-hours', status: 'APPROVAL_SENT', duration: 'PT8H' }), view({ operationId: 'op-date', status: 'APPROVAL_SENT' })]);

    expect(r!.allByTestId('open-request-duration').map((d) => d.textContent?.trim())).toEqual(['for 8 hours']);
  });

  it('shows neither section before the person is known', async () => {
    backend((call) => (call.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('PREVIEW_UNAVAILABLE', null)));
    r = await render(<HomePage />);
    await flush();
    expect(r.queryByTestId('my-access')).toBeNull();
    expect(r.queryByTestId('open-requests')).toBeNull();
    expect(r.allByTestId('catalog-target')).toHaveLength(2);
  });
});
