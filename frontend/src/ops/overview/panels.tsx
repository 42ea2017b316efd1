import type { ComponentType, ReactNode } from 'react';
import type { Overview } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { Fact } from '../../components/Fact';
import { BarChart, type BarTone } from '../../components/charts/BarChart';
import { HourlyChart } from '../../components/charts/HourlyChart';
import { formatDateTime } from '../../logic/format';
import { statusLabel, statusTone } from '../../logic/timeline';
import { formatSpan, ownerLabel } from '../../logic/wait';
import { Link } from '../../router/router';
import { ExpiringGrantsPanel } from '../ExpiringGrantsPanel';
import { InstancesPanel } from '../InstancesPanel';
import { consolePaths, stuckList } from '../paths';

/** What every overview panel gets: the last answer of GET /ops/overview and the time it is read at. */
export interface OverviewPanelProps {
  overview: Overview;
  now: Date;
}

/**
 * One panel of the landing page. Panels are a list, so another panel (one that loads its own data, e.g.
 * grants expiring soon) is added by appending an entry; it may ignore the props.
 */
export interface OverviewPanelEntry {
  key: string;
  Panel: ComponentType<OverviewPanelProps>;
}

const link = (href: string, children: ReactNode, label: string) => (
  <Link to={href} aria-label={label}>
    {children}
  </Link>
);

function Section({ id, title, children, testId, wide }: { id: string; title: string; children: ReactNode; testId: string; wide?: boolean }) {
  return (
    <section aria-labelledby={id} className={`subsection overview-panel${wide ? ' overview-wide' : ''}`} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

const TONE: Record<string, BarTone> = { progress: 'progress', success: 'success', failure: 'failure', ended: 'ended' };

/** Requests per state, every state a link to its list. */
export function StatesPanel({ overview }: OverviewPanelProps) {
  const bars = overview.states
    .filter((s) => s.count > 0)
    .map((s) => ({
      key: s.status,
      label: statusLabel(s.status),
      value: s.count,
      tone: TONE[statusTone(s.status)] ?? 'neutral',
      href: stuckList({ status: s.status }),
    }));
  const total = overview.states.reduce((n, s) => n + s.count, 0);
  return (
    <Section id="overview-states" title="States" testId="overview-states">
      <p className="muted small">
        {total} subject-target relationships in all; states without any are left out.
      </p>
      <BarChart title="Requests per state" itemHeader="State" unit="requests" bars={bars} link={link} testId="overview-states-chart" />
    </Section>
  );
}

function deadlineText(at: string | null, now: Date): string {
  if (!at) return 'none: a person acts';
  const ms = new Date(at).getTime() - now.getTime();
  if (Number.isNaN(ms)) return at;
  return ms <= 0 ? `${formatDateTime(at)} (passed ${formatSpan(-ms)} ago)` : `${formatDateTime(at)} (in ${formatSpan(ms)})`;
}

/** The longest wait of each waiting state, with who acts next and the earliest deadline. */
export function WaitingPanel({ overview, now }: OverviewPanelProps) {
  return (
    <Section id="overview-waiting" title="Longest waits" testId="overview-waiting" wide>
      {overview.waiting.length === 0 ? (
        <p className="muted">No request is waiting.</p>
      ) : (
        <DataTable
          columns={['State', 'Waiting on', { label: 'Requests', num: true }, 'Longest wait', 'Next deadline', 'Then']}
          testId="overview-waiting-table"
        >
          {overview.waiting.map((w) => (
            <tr key={`${w.status}-${w.owner}`} data-testid="overview-waiting-row" data-status={w.status} data-owner={w.owner}>
              <th scope="row">{statusLabel(w.status)}</th>
              <td>{ownerLabel(w.owner)}</td>
              <td className="num">{link(stuckList({ status: w.status }), String(w.count), `${w.count} requests ${statusLabel(w.status)}`)}</td>
              <td data-seconds={w.oldestAgeSeconds}>
                {link(
                  stuckList({ status: w.status, stuckForSeconds: w.oldestAgeSeconds }),
                  formatSpan(w.oldestAgeSeconds * 1000),
                  `the longest waiting request ${statusLabel(w.status)}: ${formatSpan(w.oldestAgeSeconds * 1000)}`,
                )}
              </td>
              <td title={w.deadlineKey ?? undefined}>{deadlineText(w.nextDeadline, now)}</td>
              <td>{w.atDeadline}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

/** Completions and failures per hour over the last 24 hours. */
export function HoursPanel({ overview }: OverviewPanelProps) {
  return (
    <Section id="overview-hours" title="Last 24 hours" testId="overview-hours">
      <HourlyChart
        title="Completions and failures per hour"
        hours={overview.hours}
        completedHref={stuckList({ status: 'VALIDATED' })}
        failedHref={stuckList({})}
        link={link}
        testId="overview-hours-chart"
      />
      <p className="muted small">A failure is a state write into a failed state; the failed link lists every open request, oldest first.</p>
    </Section>
  );
}

const SYSTEM_NAMES: Record<string, string> = { gitlab: 'GitLab', approval: 'Approval system', 'deploy-reports': 'Deploy reports' };

/** The external systems: breaker and recent error rate (this instance's view), and the deploy reports received. */
export function DependenciesPanel({ overview }: OverviewPanelProps) {
  return (
    <Section id="overview-dependencies" title="External systems" testId="overview-dependencies">
      <DataTable
        columns={['System', 'Circuit breaker', { label: 'Error rate', num: true }, { label: 'Recent calls (failed)', num: true }, { label: 'Refused while open', num: true }, 'Last report']}
      >
        {overview.dependencies.map((d) => (
          <tr key={d.system} data-testid="overview-dependency" data-system={d.system} data-breaker={d.breaker ?? ''}>
            <th scope="row">{SYSTEM_NAMES[d.system] ?? d.system}</th>
            <td>
              {d.breaker === null ? (
                <span className="muted">received, not called</span>
              ) : (
                <span className={`badge ${d.breaker === 'CLOSED' ? 'badge-success' : 'badge-failure'}`}>{d.breaker}</span>
              )}
            </td>
            <td className="num" data-testid="overview-error-rate">
              {d.errorRatePercent === null ? '—' : `${Math.round(d.errorRatePercent * 10) / 10} %`}
            </td>
            <td className="num">
              {d.recentCalls} ({d.recentFailures})
            </td>
            <td className="num">{d.breaker === null ? '—' : d.notPermittedCalls}</td>
            <td>{d.breaker === null ? formatDateTime(d.lastSeen) : '—'}</td>
          </tr>
        ))}
      </DataTable>
      <p className="muted small">
        Breakers are per instance: this is the instance that answered. Deploy reports count the last hour; their error
        rate is the share not reporting success.
      </p>
    </Section>
  );
}

/** The scheduler's backlog of workflow steps, cluster-wide. */
export function BacklogPanel({ overview }: OverviewPanelProps) {
  const b = overview.backlog;
  return (
    <Section id="overview-backlog" title="Scheduler backlog" testId="overview-backlog">
      {b === null ? (
        <p className="muted" data-testid="overview-backlog-unknown">The work queue could not be read just now.</p>
      ) : (
        <dl className="facts" data-testid="overview-backlog-facts">
          <Fact term="Waiting to run" testId="overview-backlog-waiting">
            {b.waiting} of {b.capacity}
          </Fact>
          <Fact term="Due now" testId="overview-backlog-due">{b.dueNow}</Fact>
          <Fact term="Running">{b.running}</Fact>
          <Fact term="Retried after an error">{b.failing}</Fact>
          <Fact term="Oldest due since">{formatDateTime(b.oldestDue)}</Fact>
        </dl>
      )}
    </Section>
  );
}

/** The batch slot of each partition: free, or held by a running or blocked batch. */
export function SlotsPanel({ overview }: OverviewPanelProps) {
  return (
    <Section id="overview-slots" title="Batch slots" testId="overview-slots">
      {overview.slots.length === 0 ? (
        <p className="muted">No batch partition.</p>
      ) : (
        <DataTable columns={['Partition', 'Slot', { label: 'Waiting requests', num: true }]}>
          {overview.slots.map((s) => (
            <tr key={s.partition} data-testid="overview-slot" data-partition={s.partition} data-batch-status={s.batchStatus ?? 'FREE'}>
              <th scope="row">
                <code>{s.partition}</code>
              </th>
              <td>
                {s.batchId === null
                  ? 'free'
                  : link(consolePaths.batches, `batch ${s.batchId} ${s.batchStatus ?? ''} since ${formatDateTime(s.since)}`, `batch ${s.batchId} ${s.batchStatus ?? ''} since ${formatDateTime(s.since)}`)}
              </td>
              <td className="num">{link(stuckList({ status: 'BATCH_WAITING' }), String(s.waiting), `${s.waiting} requests waiting for a batch round`)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

/** The landing page's panels, in order. */
export const OVERVIEW_PANELS: readonly OverviewPanelEntry[] = [
  { key: 'states', Panel: StatesPanel },
  { key: 'waiting', Panel: WaitingPanel },
  { key: 'hours', Panel: HoursPanel },
  { key: 'dependencies', Panel: DependenciesPanel },
  { key: 'backlog', Panel: BacklogPanel },
  { key: 'slots', Panel: SlotsPanel },
  // loads its own figures (GET /ops/grants/expiring) and ignores the overview's
  { key: 'expiring', Panel: ExpiringGrantsPanel },
  // loads its own roster (GET /ops/instances): every instance's version and commit (issue 31)
  { key: 'instances', Panel: InstancesPanel },
];
