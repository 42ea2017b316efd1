/** Payloads of docs/api.md. Fields may grow; the app reads only what it needs. */

export interface Me {
  account: string;
  verified: boolean;
  permissions: string[];
  sandbox: boolean;
  /** Whether the access mode accepts submissions right now (a submission may still be refused). */
  submissionsOpen: boolean;
}

export interface DemoUser {
  user: string;
  label: string;
  role: string | null;
}

export interface Target {
  key: string;
  name: string;
  description: string;
  batchable: boolean;
}

export interface Preview {
  project: string;
  filePath: string;
  removedLine: string | null;
  addedLine: string | null;
}

export type HintCode = 'KEEP_WAITING' | 'CONTACT_MAINTAINERS' | 'CAN_REAPPLY' | 'NONE';

export interface Hint {
  code: HintCode | string;
  message: string;
}

export interface MergeRequestLink {
  project: string;
  iid: number;
  webUrl: string;
}

export interface TimelineEntry {
  event: string;
  step: string | null;
  status: string | null;
  at: string;
  detail: string | null;
}

export type StepOrder = 'APPROVE_FIRST' | 'CREATE_FIRST';

/** The request view (GET /api/requests/{operationId}). */
export interface RequestView {
  operationId: string;
  targetKey: string;
  subjectId: string;
  requester: string;
  reason: string;
  expiresAt: string | null;
  stepOrder: StepOrder | string | null;
  /** External state; null when a re-application replaced this request. */
  status: string | null;
  step: string | null;
  stepCode: number | null;
  hint: Hint | null;
  /** Note on the last step (e.g. why it stopped), safe to show. */
  detail?: string | null;
  mergeRequest: MergeRequestLink | null;
  batchId: number | string | null;
  timeline?: TimelineEntry[];
  createdAt: string;
  updatedAt: string;
}

export interface SubmitRequestBody {
  operationId: string;
  targetKey: string;
  subjectId?: string;
  reason: string;
  expiresAt?: string;
}

export interface PageOf<T> {
  items: T[];
  page: number;
  size: number;
  hasMore: boolean;
}

export interface Binding {
  subjectId: string;
  targetKey: string;
  status: string;
  operationId: string | null;
  expiresAt: string | null;
  updatedAt: string | null;
}

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
export interface HistoryEntry {
  event: string;
  fromStep: string | null;
  toStep: string | null;
  fromStatus: string | null;
  toStatus: string | null;
  detail: string | null;
  actor: string | null;
  at: string;
}

/** One audit entry (parameters already masked and cut by the server). */
export interface AuditEntry {
  actor: string;
  action: string;
  subject: string | null;
  parameters: Record<string, string> | null;
  at: string;
}

/** GET /ops/operations/{id}: the request view's fields (flattened) plus both layers, history and audit. */
export interface OperationDetail extends RequestView {
  binding?: Binding | null;
  history?: HistoryEntry[];
  audit?: AuditEntry[];
  /** RETRIGGER, CLOSE; absent: the buttons stay enabled and the server decides. */
  allowedActions?: string[];
  /** The step a re-trigger would run, or null. */
  retriggerStep?: string | null;
}

export interface RetriggerResult {
  operationId: string;
  step: string;
  scheduled: boolean;
}

export interface Batch {
  id: number | string;
  partition: string;
  status: string;
  depth: number | null;
  /** The members' request views (without timeline), in claim order. */
  members: RequestView[];
  mergeRequest: MergeRequestLink | null;
  detail: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** POST /ops/batch-rounds (codes CLAIMED, SLOT_OCCUPIED, NOTHING_TO_CLAIM; the last two with nulls). */
export interface BatchRound {
  partition: string;
  batchId: number | string | null;
  members: string[] | null;
  scheduled: boolean | null;
}

/** POST /ops/batches/{id}/settle (code SETTLED). */
export interface Settlement {
  batchId: number | string;
  /** MERGED_WINS, FAILED or RETRY_LATER. */
  outcome: string;
  batchStatus: string | null;
  /** TRANSIENT or DETERMINISTIC (FAILED only). */
  failureKind: string | null;
  /** REQUEUE_ALL, SPLIT, BLAME or GIVE_UP (FAILED only). */
  plan: string | null;
}

export interface ReconciliationResult {
  examined: number;
  advanced: number;
}

export interface ConfigEntry {
  key: string;
  raw: string | null;
  resolved: unknown;
  rule: string | null;
  /** file or environment; null for a missing key. */
  source?: string | null;
}
