/**
 * Payloads of docs/api.md, taken from the types generated from the OpenAPI document (schema.ts, by
 * openapi-typescript: `cd api-contract && npm run types`), so the app and the server cannot drift apart
 * unnoticed. Fields may grow; the app reads only what it needs. The unions below narrow what the document
 * types as plain strings (the app falls back for values it does not know).
 */
import type { components } from './schema';

type Schemas = components['schemas'];

export type Me = Schemas['MeJson'];

/** A demo person as the sign-in page lists them (normalized from GET /sandbox/demo-users by the app). */
export interface DemoUser {
  user: string;
  label: string;
  role: string | null;
}

export type Target = Schemas['TargetJson'];

export type Preview = Schemas['PreviewJson'];

export type HintCode = 'KEEP_WAITING' | 'CONTACT_MAINTAINERS' | 'CAN_REAPPLY' | 'NONE';

export type Hint = Schemas['HintJson'];

export type MergeRequestLink = Schemas['MergeRequestJson'];

export type TimelineEntry = Schemas['TimelineJson'];

export type StepOrder = 'APPROVE_FIRST' | 'CREATE_FIRST';

/** Who is expected to act next on a request. */
export type WaitingFor = 'SERVICE' | 'APPROVER' | 'PIPELINE' | 'DEPLOY_PIPELINE' | 'MAINTAINERS';

/** Who is expected to act next, since and until when (request view `waiting`; absent when nobody is). */
export type RequestWait = Schemas['WaitJson'];

/** The request view (GET /api/requests/{operationId}); list views leave `timeline` and `waiting` out. */
export type RequestView = Schemas['RequestJson'];

/** What a request changes (docs/api.md, "The request view"). */
export type RequestKind = 'GRANT' | 'RENEWAL' | 'EXPIRY' | 'REVOCATION';

export type RemovalCause = 'EXPIRED' | 'GIVEN_UP' | 'REVOKED';

/** For a removal: why and by whom ('system' for an expiry). */
export type RemovalInfo = Schemas['RemovalJson'];

export type SubmitRequestBody = Schemas['SubmitForm'];

/** A page of records (GET /api/requests: `Schemas['PageJson']` is a page of request views). */
export interface PageOf<T> {
  items: T[];
  page: number;
  size: number;
  hasMore: boolean;
}

export type Binding = Schemas['BindingJson'];

/** GET /ops/grants/expiring: the grants in effect expiring within the window, counted by the server. */
export type ExpiringGrants = Schemas['ExpiringJson'];

/** GET /ops/instances: every instance with the version and commit it runs (issue 31). */
export type InstanceRoster = Schemas['InstancesJson'];

/** A pending approval of the sandbox's approver inbox (the simulator's envelope is untyped in the document). */
export interface InboxItem {
  ticket: string;
  operationId: string;
  requester: string;
  subject: string;
  target: string;
  reason: string;
  createdAt: string;
}

export type Decision = 'APPROVE' | 'REJECT';

/** One state write of GET /ops/operations/{id}: both layers before and after. */
export type HistoryEntry = Schemas['HistoryJson'];

/** One audit entry (parameters already masked and cut by the server). */
export type AuditEntry = Schemas['AuditJson'];

/** GET /ops/operations/{id}: the request view's fields (flattened) plus both layers, history and audit. */
export type OperationDetail = Schemas['DetailsJson'];

/** POST /ops/operations/{id}/confirm-deployed (code CONFIRMED) or /mark-deploy-failed (code MARKED_FAILED). */
export type DeployActionResult = Schemas['DeployActionJson'];

export type RetriggerResult = Schemas['RetriggerJson'];

export type Batch = Schemas['BatchJson'];

/** POST /ops/batch-rounds (codes CLAIMED, SLOT_OCCUPIED, NOTHING_TO_CLAIM; the last two with nulls). */
export type BatchRound = Schemas['RoundJson'];

/** POST /ops/batches/{id}/settle (code SETTLED). */
export type Settlement = Schemas['SettlementJson'];

/** One request past the deadline of whoever owns its next move (GET /ops/overdue). */
export type OverdueRequest = Schemas['OverdueJson'];

export type OverdueList = Schemas['OverdueListJson'];

/** One finding of the GitLab setup check (GET /ops/gitlab-check): severity BLOCKS or WARNS. */
export type SetupFinding = Schemas['FindingJson'];

export type GitLabCheck = Schemas['CheckJson'];

export type ReconciliationResult = Schemas['ReconciliationJson'];

export type ConfigEntry = Schemas['ConfigEntry'];

/** GET /ops/overview: what the service is doing right now (docs/api.md). */
export type Overview = Schemas['OverviewJson'];

/** Non-terminal states by owner: count, the longest wait, the earliest deadline among them. */
export type OverviewWaiting = Schemas['WaitingJson'];

/** An external system as this instance sees it: breaker state and recent error rate. */
export type OverviewDependency = Schemas['DependencyJson'];

/** A drift item (issue 36): a grant file on main and the records disagree; evidence and the actions it allows. */
export type DriftItem = Schemas['DriftJson'];

/** A drift item that concerns me, and whether I am its subject (false: a subject I asked for). */
export type MyDrift = Schemas['MyDriftJson'];

/** A queued notification as operators see it (issue 32): state, channel, recipient kind, attempts, last error without secrets. */
export type QueuedNotification = Schemas['NotificationJson'];

/** A page of the outbox, newest first; `nextBefore` continues it (null on the last page). */
export type NotificationPage = Schemas['NotificationPageJson'];

/** What an operator's drift action did: the item now, and the removal or adopting request it opened. */
export type DriftActed = Schemas['ActedJson'];
