import { api, type ApiResult } from './client';
import type {
  Batch,
  BatchRound,
  Binding,
  ConfigEntry,
  DeployActionResult,
  Decision,
  DemoUser,
  DriftActed,
  DriftItem,
  ExpiringGrants,
  GitLabCheck,
  InboxItem,
  InstanceRoster,
  Me,
  NotificationPage,
  MyDrift,
  OperationDetail,
  OverdueList,
  Overview,
  PageOf,
  Preview,
  ReconciliationResult,
  RequestView,
  RetriggerResult,
  Settlement,
  SubmitRequestBody,
  Target,
} from './types';

const enc = encodeURIComponent;

export const getMe = (signal?: AbortSignal) => api.get<Me>('/api/me', { signal });

/** The shape of /sandbox/demo-users is open: accept names or objects, in a list or under `users`. */
export function normalizeDemoUsers(data: unknown): DemoUser[] {
  const list: unknown[] = Array.isArray(data)
    ? data
    : data !== null && typeof data === 'object' && Array.isArray((data as { users?: unknown }).users)
      ? ((data as { users: unknown[] }).users)
      : [];
  return list.flatMap((item): DemoUser[] => {
    if (typeof item === 'string' && item !== '') return [{ user: item, label: item, role: null }];
    if (item === null || typeof item !== 'object') return [];
    const o = item as Record<string, unknown>;
    const user = [o.user, o.account, o.id, o.name].find((v): v is string => typeof v === 'string' && v !== '');
    if (!user) return [];
    const label = [o.displayName, o.label, o.name].find((v): v is string => typeof v === 'string' && v !== '') ?? user;
    const rawRole = o.role ?? o.roles ?? o.description;
    const role = Array.isArray(rawRole)
      ? rawRole.filter((r) => typeof r === 'string').join(', ') || null
      : typeof rawRole === 'string' && rawRole !== ''
        ? rawRole
        : null;
    return [{ user, label, role }];
  });
}

export async function getDemoUsers(signal?: AbortSignal): Promise<ApiResult<DemoUser[]>> {
  const result = await api.get<unknown>('/sandbox/demo-users', { signal });
  return result.ok ? { ...result, data: normalizeDemoUsers(result.data) } : result;
}

export const sandboxLogin = (user: string) => api.post<unknown>('/sandbox/login', { user });
export const sandboxLogout = () => api.post<unknown>('/sandbox/logout');

export const getTargets = (signal?: AbortSignal) => api.get<Target[]>('/api/targets', { signal });

/** What the preview reads: the form's fields, so the shown line is the one the merge request would add. */
export interface PreviewQuery {
  targetKey: string;
  subjectId?: string;
  operationId?: string;
  expiresAt?: string;
}

/** 200 OK with the preview, or 200 PREVIEW_UNAVAILABLE with data null (never blocks submitting). */
export const getPreview = (query: PreviewQuery, signal?: AbortSignal) =>
  api.get<Preview | null>('/api/requests/preview', { query: { ...query }, signal });

export const submitRequest = (body: SubmitRequestBody) => api.post<RequestView>('/api/requests', body);

export const getRequest = (operationId: string, signal?: AbortSignal) =>
  api.get<RequestView>(`/api/requests/${enc(operationId)}`, { signal, conditional: true });

/** My records, newest first; `status` and `targetKey` filter on the server (absent: every one). */
export const listMyRequests = (
  query: { page: number; size: number; status?: string | null; targetKey?: string | null },
  signal?: AbortSignal,
) =>
  api.get<PageOf<RequestView>>('/api/requests', {
    query: {
      page: query.page,
      size: query.size,
      ...(query.status ? { status: query.status } : {}),
      ...(query.targetKey ? { targetKey: query.targetKey } : {}),
    },
    signal,
    conditional: true,
  });

export const listMyBindings = (signal?: AbortSignal) => api.get<Binding[]>('/api/bindings', { signal });

/** Gives a grant in effect up (202 REMOVAL_ACCEPTED with the removal's view; no approval). */
export const giveUpBinding = (targetKey: string, subjectId: string) =>
  api.post<RequestView>(`/api/bindings/${enc(targetKey)}/give-up`, undefined, { query: { subjectId } });

/**
 * An operator revokes a grant in effect (202 REMOVAL_ACCEPTED with the removal's view). `urgent`: its removal round runs
 * at once; `reason` travels as a request parameter, so the audit entry (`REVOKE_GRANT`) records it.
 */
export const revokeGrant = (subjectId: string, targetKey: string, options: { urgent: boolean; reason: string }) =>
  api.post<RequestView>(`/ops/bindings/${enc(subjectId)}/${enc(targetKey)}/revoke`, undefined, {
    query: { urgent: String(options.urgent), reason: options.reason.trim() },
  });

export const getInbox = (signal?: AbortSignal) => api.get<InboxItem[]>('/sim/approval/inbox', { signal });

export const decide = (ticket: string, decision: Decision) =>
  api.post<unknown>(`/sim/approval/inbox/${enc(ticket)}/decision`, { decision });

export const findOperations = (
  query: { status?: string; targetKey?: string; stuckForSeconds?: number | null; limit?: number },
  signal?: AbortSignal,
) => api.get<RequestView[]>('/ops/operations', { query, signal });

/** How many grants in effect expire within `within` (ISO-8601), and the soonest `limit` of them. */
export const getExpiringGrants = (within: string, limit: number, signal?: AbortSignal) =>
  api.get<ExpiringGrants>('/ops/grants/expiring', { query: { within, limit }, signal });

/** Every instance with its version, commit and state (issue 31). */
export const getInstances = (signal?: AbortSignal) => api.get<InstanceRoster>('/ops/instances', { signal });

/** Requests past the deadline of whoever owns their next move, longest overdue first. */
export const findOverdue = (signal?: AbortSignal) => api.get<OverdueList>('/ops/overdue', { signal });

/** The GitLab setup check, run now: what in the catalog projects' settings will stop the service. */
export const checkGitLabSetup = (signal?: AbortSignal) => api.get<GitLabCheck>('/ops/gitlab-check', { signal });

/** The operations overview: states, waits, 24 hours, dependencies, backlog, batch slots. */
export const getOverview = (signal?: AbortSignal) => api.get<Overview>('/ops/overview', { signal, conditional: true });

export const getOperation = (operationId: string, signal?: AbortSignal) =>
  api.get<OperationDetail>(`/ops/operations/${enc(operationId)}`, { signal });

export const retrigger = (operationId: string) =>
  api.post<RetriggerResult>(`/ops/operations/${enc(operationId)}/retrigger`);

export const closeOperation = (operationId: string) =>
  api.post<unknown>(`/ops/operations/${enc(operationId)}/close`);

export const confirmDeployed = (operationId: string) =>
  api.post<DeployActionResult>(`/ops/operations/${enc(operationId)}/confirm-deployed`);

export const markDeployFailed = (operationId: string) =>
  api.post<DeployActionResult>(`/ops/operations/${enc(operationId)}/mark-deploy-failed`);

export const startBatchRound = (partition: string) =>
  api.post<BatchRound | null>('/ops/batch-rounds', {}, { query: { partition } });

/** The newest batches; `status` and `partition` filter on the server, before the limit (absent: every one). */
export const listBatches = (
  query: { limit: number; status?: string | null; partition?: string | null },
  signal?: AbortSignal,
) =>
  api.get<Batch[]>('/ops/batches', {
    query: {
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
      ...(query.partition ? { partition: query.partition } : {}),
    },
    signal,
  });

export const settleBatch = (id: number | string) =>
  api.post<Settlement | null>(`/ops/batches/${enc(String(id))}/settle`);

export const runReconciliation = () => api.post<ReconciliationResult>('/ops/reconciliation-runs');

export const getConfig = (signal?: AbortSignal) => api.get<ConfigEntry[]>('/ops/config', { signal });

/** Drift items (issue 36), newest sighting first; `status`, `targetKey`, `kind` narrow on the server. */
export const listDrift = (
  query: { limit: number; status?: string | null; targetKey?: string | null; kind?: string | null },
  signal?: AbortSignal,
) =>
  api.get<DriftItem[]>('/ops/drift', {
    query: {
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
      ...(query.targetKey ? { targetKey: query.targetKey } : {}),
      ...(query.kind ? { kind: query.kind } : {}),
    },
    signal,
  });

/** Removes a drift item's line through the workflow (200 REMOVING with the removal's operationId). */
export const removeDrift = (id: number) => api.post<DriftActed>(`/ops/drift/${enc(String(id))}/remove`);

/** Adopts a drift item's line as a grant request until `until` (blank: no expiry); an approver decides. */
export const adoptDrift = (id: number, until: string) =>
  api.post<DriftActed>(`/ops/drift/${enc(String(id))}/adopt`, until.trim() ? { until: until.trim() } : {});

/** Acknowledges a drift item with a reason: the line stays. */
export const acknowledgeDrift = (id: number, reason: string) =>
  api.post<DriftActed>(`/ops/drift/${enc(String(id))}/acknowledge`, { reason });

/** The notifications' outbox (issue 32), newest first; `state` narrows, `before` continues below a page's `nextBefore`. */
export const listNotifications = (
  query: { limit: number; state?: string | null; before?: string | null },
  signal?: AbortSignal,
) =>
  api.get<NotificationPage>('/ops/notifications', {
    query: {
      limit: query.limit,
      ...(query.state ? { state: query.state } : {}),
      ...(query.before ? { before: query.before } : {}),
    },
    signal,
  });

/** The drift that concerns me: as the subject, or as the requester of a subject I asked for. */
export const listMyDrift = (signal?: AbortSignal) => api.get<MyDrift[]>('/api/drift', { signal });
