/** Payloads of docs/api.md. Fields may grow; the app reads only what it needs. */

export interface Me {
  account: string;
  verified: boolean;
  permissions: string[];
  sandbox: boolean;
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

/** GET /ops/operations/{id}: the request view plus both layers, history and audit. */
export interface OperationDetail extends RequestView {
  binding?: Record<string, unknown> | null;
  history?: Array<Record<string, unknown>>;
  audit?: Array<Record<string, unknown>>;
  allowedActions?: string[];
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
  members: unknown[];
  mergeRequest: MergeRequestLink | null;
  detail: string | null;
  createdAt: string | null;
  updatedAt: string | null;
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
}
