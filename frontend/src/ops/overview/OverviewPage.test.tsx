import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { InstanceRoster, Overview } from '../../api/types';
import { barSummary } from '../../components/charts/BarChart';
import { hourlySummary } from '../../components/charts/HourlyChart';
import { envelope, type RecordedCall, type Reply } from '../../test/fetchMock';
import { flush, type Rendered } from '../../test/render';
import { testSession } from '../../test/session';
import { readStuckQuery, stuckList } from '../paths';
import { OVERVIEW_REFRESH_MS, OverviewPage } from './OverviewPage';
import { OVERVIEW_PANELS } from './panels';

const session = testSession({ after: () => vi.useRealTimers() });
const { render } = session;
let r: Rendered | null = null;

const ROSTER: InstanceRoster = {
  at: '2026-03-02T10:30:00Z',
  mixed: true,
  versions: ['0.4.0', '0.5.0'],
  instances: [
    { name: 'app-3-77', version: '0.5.0', commit: 'bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222', state: 'RUNNING',
      startedAt: '2026-03-02T10:20:00Z', lastSeen: '2026-03-02T10:30:00Z', secondsSinceSeen: 0, stoppedAt: null },
    { name: 'app-2-42', version: '0.4.0', commit: 'aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111', state: 'RUNNING',
      startedAt: '2026-03-01T08:00:00Z', lastSeen: '2026-03-02T10:29:55Z', secondsSinceSeen: 5, stoppedAt: null },
    { name: 'app-1-41', version: '0.4.0', commit: 'aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111', state: 'STOPPED',
      startedAt: '2026-03-01T08:00:00Z', lastSeen: '2026-03-02T10:25:00Z', secondsSinceSeen: 300, stoppedAt: '2026-03-02T10:25:00Z' },
  ],
};

/**
 * The overview's own endpoint answers as `handler` says; the expiring-grants panel's gets nothing expiring and the
 * instances panel's the roster `roster`. `calls` are the overview's only.
 */
function backend(handler: (call: RecordedCall) => Reply, roster: InstanceRoster = ROSTER) {
  const own = (call: RecordedCall) => call.url.includes('/ops/grants/expiring') || call.url.includes('/ops/instances');
  const mock = session.backend((call) =>
    call.url.includes('/ops/grants/expiring')
      ? envelope('OK', { within: 'PT24H', count: 0, hasMore: false, grants: [] })
      : call.url.includes('/ops/instances')
        ? envelope('OK', roster)
        : handler(call),
  );
  return { ...mock, get calls() {
    return mock.calls.filter((call) => !own(call));
  } };
}

const AT = '2026-03-02T10:30:00Z';

function hours(): Overview['hours'] {
  return Array.from({ length: 24 }, (_, i) => ({
    start: new Date(Date.parse('2026-03-01T11:00:00Z') + i * 3_600_000).toISOString(),
    completed: i === 23 ? 3 : i === 20 ? 5 : 0,
    failed: i === 23 ? 1 : 0,
  }));
}

function overview(overrides: Partial<Overview> = {}): Overview {
  return {
    at: AT,
    states: [
      { status: 'APPROVAL_SENT', count: 2 },
      { status: 'MERGED', count: 1 },
      { status: 'VALIDATED', count: 8 },
      { status: 'CREATE_FAILED', count: 1 },
      { status: 'CLOSED', count: 0 },
    ],
    waiting: [
      {
        status: 'APPROVAL_SENT',
        owner: 'APPROVER',
        count: 2,
        oldestSince: '2026-03-02T09:48:00Z',
        oldestAgeSeconds: 42 * 60,
        deadline: 'APPROVAL',
        deadlineKey: 'changeflow.workflow.approval-deadline',
        nextDeadline: '2026-03-02T13:30:00Z',
        atDeadline: 'the approval is withdrawn and the request ends rejected',
      },
      {
        status: 'CREATE_FAILED',
        owner: 'MAINTAINERS',
        count: 1,
        oldestSince: '2026-03-02T08:30:00Z',
        oldestAgeSeconds: 7200,
        deadline: null,
        deadlineKey: null,
        nextDeadline: null,
        atDeadline: 'nothing: a person was told to act',
      },
    ],
    hours: hours(),
    dependencies: [
      { system: 'gitlab', breaker: 'OPEN', errorRatePercent: 62.5, recentCalls: 8, recentFailures: 5, notPermittedCalls: 3, lastSeen: null },
      { system: 'approval', breaker: 'CLOSED', errorRatePercent: null, recentCalls: 0, recentFailures: 0, notPermittedCalls: 0, lastSeen: null },
      { system: 'deploy-reports', breaker: null, errorRatePercent: 25, recentCalls: 4, recentFailures: 1, notPermittedCalls: 0, lastSeen: AT },
    ],
    backlog: { waiting: 12, dueNow: 3, running: 2, failing: 1, capacity: 10000, oldestDue: '2026-03-02T10:29:00Z' },
    slots: [
      { partition: 'global', waiting: 4, batchId: null, batchStatus: null, since: null },
      { partition: 'wiki', waiting: 0, batchId: 7, batchStatus: 'BLOCKED', since: '2026-03-02T10:00:00Z' },
    ],
    ...overrides,
  };
}

function envelope200(data: Overview) {
  return { code: 'OK', message: 'OK message', data, traceId: 'trace-ok' };
}

describe('OverviewPage', () => {
  it('shows every figure of the answer, each number a link to the list behind it', async () => {
    backend((c) => (c.url.startsWith('/ops/overview') ? envelope('OK', overview()) : envelope('NOT_FOUND', null, 404)));
    r = await render(<OverviewPage />);
    await flush();

    const states = r.allByTestId('overview-states-chart-row');
    expect(states.map((row) => [row.dataset.key, row.dataset.value])).toEqual([
      ['APPROVAL_SENT', '2'],
      ['MERGED', '1'],
      ['VALIDATED', '8'],
      ['CREATE_FAILED', '1'],
    ]);
    expect(states[0]!.querySelector('a')?.getAttribute('href')).toBe('/console/stuck?status=APPROVAL_SENT&stuckFor=0');
    const svg = r.byTestId('overview-states-chart').querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.querySelector('desc')?.textContent).toBe(
      'Requests per state: 2 Waiting for approval, 1 Merged, rolling out, 8 In effect, 1 Creating the merge request failed.',
    );
    expect(svg.querySelectorAll('rect')).toHaveLength(4);

    const [approval, failed] = r.allByTestId('overview-waiting-row');
    expect(approval!.textContent).toContain('the approver');
    expect(approval!.textContent).toContain('42 min');
    expect(approval!.textContent).toContain('(in 3 h)');
    expect(Array.from(approval!.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual([
      '/console/stuck?status=APPROVAL_SENT&stuckFor=0',
      '/console/stuck?status=APPROVAL_SENT&stuckFor=2520',
    ]);
    expect(failed!.textContent).toContain('none: a person acts');

    expect(r.byTestId('overview-hours-chart-totals').textContent).toBe('In 24 hours: 8 completed, 1 failed.');
    expect(r.allByTestId('overview-hours-chart-row')).toHaveLength(24);
    expect(r.byTestId('overview-hours-chart-totals').querySelector('a')?.getAttribute('href')).toBe(
      '/console/stuck?status=VALIDATED&stuckFor=0',
    );

    const deps = r.allByTestId('overview-dependency');
    expect(deps.map((d) => [d.dataset.system, d.dataset.breaker])).toEqual([
      ['gitlab', 'OPEN'],
      ['approval', 'CLOSED'],
      ['deploy-reports', ''],
    ]);
    expect(deps.map((d) => d.querySelector('[data-testid="overview-error-rate"]')?.textContent)).toEqual(['62.5 %', '—', '25 %']);

    expect(r.byTestId('overview-backlog-waiting').textContent).toBe('12 of 10000');
    expect(r.byTestId('overview-backlog-due').textContent).toBe('3');

    const slots = r.allByTestId('overview-slot');
    expect(slots.map((s) => [s.dataset.partition, s.dataset.batchStatus])).toEqual([
      ['global', 'FREE'],
      ['wiki', 'BLOCKED'],
    ]);
    expect(slots[1]!.querySelector('a')?.getAttribute('href')).toBe('/console/batches');
  });

  it('looks again every 15 s while visible, keeps the last answer through a failed refresh, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    let answer: Reply = envelope('OK', overview());
    const mock = backend(() => answer);
    r = await render(<OverviewPage />);
    await flush();
    expect(mock.calls).toHaveLength(1);

    answer = envelope('OK', overview({ backlog: { waiting: 99, dueNow: 0, running: 0, failing: 0, capacity: 100, oldestDue: null } }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(OVERVIEW_REFRESH_MS);
    });
    await flush();
    expect(mock.calls).toHaveLength(2);
    expect(r.byTestId('overview-backlog-waiting').textContent).toBe('99 of 100');

    answer = envelope('INTERNAL_ERROR', null, 500);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(OVERVIEW_REFRESH_MS);
    });
    await flush();
    expect(r.byTestId('error').dataset.code).toBe('INTERNAL_ERROR');
    expect(r.byTestId('overview-backlog-waiting').textContent).toBe('99 of 100');
  });

  it('polls with the ETag of its last answer and on a 304 keeps it, its ages and "as of" moved on by the time passed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(AT));
    let answer: Reply = { status: 200, body: envelope200(overview()), headers: { 'Content-Type': 'application/json', ETag: 'W/"1-abc"' } };
    const mock = backend(() => answer);
    r = await render(<OverviewPage />);
    await flush();
    const ages = () => r!.container.querySelector('td[data-seconds]')?.getAttribute('data-seconds');
    expect(ages()).toBe(String(42 * 60));
    const asOf = r.byTestId('overview-as-of').textContent;

    answer = { status: 304, headers: { ETag: 'W/"1-abc"' } };
    for (let poll = 0; poll < 4; poll++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(OVERVIEW_REFRESH_MS);
      });
      await flush();
    }
    expect(mock.calls).toHaveLength(5);
    expect(new Headers(mock.calls[4]!.init.headers).get('If-None-Match')).toBe('W/"1-abc"');
    expect(ages()).toBe(String(42 * 60 + (4 * OVERVIEW_REFRESH_MS) / 1000));
    expect(r.byTestId('overview-as-of').textContent).not.toBe(asOf);
    expect(r.byTestId('overview-backlog-waiting').textContent).toBe('12 of 10000');
  });

  it('ends with the grants expiring in the next 24 hours, loaded from their own endpoint', async () => {
    const mock = backend(() => envelope('OK', overview()));
    r = await render(<OverviewPage />);
    await flush();
    expect(r.byTestId('ops-expiring-count').dataset.count).toBe('0');
    expect(mock.calls).toHaveLength(1);
  });

  it('lists every instance with its version, commit and state, and says when two versions run', async () => {
    backend(() => envelope('OK', overview()));
    r = await render(<OverviewPage />);
    await flush();
    expect(r.byTestId('ops-instances-versions').dataset.mixed).toBe('true');
    expect(r.byTestId('ops-instances-versions').textContent).toBe(
      '2 versions run: 0.4.0, 0.5.0 (a rolling upgrade, or one left behind).',
    );
    const rows = r.allByTestId('ops-instance');
    expect(rows.map((row) => [row.dataset.name, row.dataset.state])).toEqual([
      ['app-3-77', 'RUNNING'],
      ['app-2-42', 'RUNNING'],
      ['app-1-41', 'STOPPED'],
    ]);
    expect(rows[0]!.textContent).toContain('0.5.0');
    expect(rows[0]!.querySelector('code[title]')?.getAttribute('title')).toBe('bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222');
    expect(rows[2]!.textContent).toContain('stopped at');
  });

  it('says every running instance runs one version when the roster is not mixed', async () => {
    backend(() => envelope('OK', overview()), { ...ROSTER, mixed: false, versions: ['0.5.0'], instances: [ROSTER.instances[0]!] });
    r = await render(<OverviewPage />);
    await flush();
    expect(r.byTestId('ops-instances-versions').textContent).toBe('Every running instance runs 0.5.0.');
    expect(r.allByTestId('ops-instance')).toHaveLength(1);
  });

  it('renders the panels it is given, so another panel is one more entry in the list', async () => {
    backend(() => envelope('OK', overview({ backlog: null })));
    const Extra = () => <p data-testid="extra-panel">grants expiring soon</p>;
    r = await render(<OverviewPage panels={[...OVERVIEW_PANELS.filter((p) => p.key === 'backlog'), { key: 'extra', Panel: Extra }]} />);
    await flush();
    expect(r.byTestId('overview-backlog-unknown').textContent).toContain('could not be read');
    expect(r.byTestId('extra-panel')).toBeTruthy();
    expect(r.queryByTestId('overview-states')).toBeNull();
  });

  it('shows a 403 as it is', async () => {
    backend(() => envelope('ACCESS_DENIED', null, 403));
    r = await render(<OverviewPage />);
    await flush();
    expect(r.byTestId('error').dataset.code).toBe('ACCESS_DENIED');
  });
});

describe('chart text alternatives and list links', () => {
  it('say the figures in one sentence', () => {
    expect(barSummary('Requests per state', [], 'requests')).toBe('Requests per state: no requests.');
    expect(hourlySummary('Per hour', hours())).toMatch(/^Per hour: 8 completed, 1 failed; busiest hour /);
  });

  it('round-trip the stuck list query', () => {
    expect(stuckList({ status: 'MERGED', stuckForSeconds: 90.7 })).toBe('/console/stuck?status=MERGED&stuckFor=90');
    expect(readStuckQuery('?status=MERGED&stuckFor=90')).toEqual({ status: 'MERGED', stuckForSeconds: 90 });
    expect(readStuckQuery('?stuckFor=-5')).toEqual({ status: undefined, stuckForSeconds: 0 });
    expect(readStuckQuery('')).toBeNull();
  });
});
