/**
 * The one way the app talks to the server. Every answer of ours is an envelope
 * `{code, message, data, traceId}` (docs/api.md). The client turns any answer, including broken
 * ones, into an ApiResult whose failure side holds only what is safe to show a person: the
 * envelope's message (or a generic one), the code and the traceId to quote. Raw bodies (HTML error
 * pages of a proxy, stack traces) are never passed on.
 */

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export interface ApiSuccess<T> {
  ok: true;
  status: number;
  code: string;
  message: string;
  data: T;
  traceId: string | null;
}

/**
 * http: the server answered with an error; network: it could not be reached (or did not answer in
 * time); aborted: the caller gave up (unmount), nothing to show.
 */
export type FailureKind = 'http' | 'network' | 'aborted';

export interface ApiFailure {
  ok: false;
  kind: FailureKind;
  status: number;
  code: string;
  message: string;
  traceId: string | null;
  fieldErrors: FieldError[];
  /** Seconds until a retry makes sense (429 / 503), from the body or the Retry-After header. */
  retryAfterSeconds: number | null;
}

export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Milliseconds before the request counts as "cannot reach the server". */
  timeoutMs?: number;
  /**
   * A conditional read (issue 33): the ETag of this URL's last answer is sent in If-None-Match, and a 304 answers
   * with that last answer itself (the same object, so a query's data stays as it was). For GETs whose answer
   * carries an ETag (docs/api.md, conditional reads).
   */
  conditional?: boolean;
}

export const NETWORK_ERROR_CODE = 'NETWORK_ERROR';
export const NETWORK_ERROR_MESSAGE = 'Cannot reach the server. Check your connection and try again.';
export const TIMEOUT_MESSAGE = 'The server did not answer in time. Try again.';
const MAX_MESSAGE_LENGTH = 300;
const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Sent on every request: a header a page of another site cannot add without a CORS preflight (which
 * the server never grants), so the server knows a write comes from this app (docs/api.md, cross-site requests).
 */
export const APP_HEADER = 'X-Requested-With';
export const APP_HEADER_VALUE = 'XMLHttpRequest';

/** The last answer with an ETag per URL, for conditional reads; the oldest is forgotten past this many. */
const MAX_CONDITIONAL_ANSWERS = 100;
const conditionalAnswers = new Map<string, { etag: string; answer: ApiSuccess<unknown> }>();

/** Forgets every kept answer (signing out; tests). */
export function forgetConditionalAnswers(): void {
  conditionalAnswers.clear();
}

function keepConditionalAnswer(url: string, etag: string, answer: ApiSuccess<unknown>): void {
  conditionalAnswers.delete(url);
  conditionalAnswers.set(url, { etag, answer });
  if (conditionalAnswers.size > MAX_CONDITIONAL_ANSWERS) {
    const oldest = conditionalAnswers.keys().next().value;
    if (oldest !== undefined) conditionalAnswers.delete(oldest);
  }
}

let fetchImpl: FetchLike = (input, init) => globalThis.fetch(input, init);

/** Tests swap the transport; returns the previous one. */
export function setFetch(next: FetchLike): FetchLike {
  const previous = fetchImpl;
  fetchImpl = next;
  return previous;
}

/** A message fit for a person, for answers that carry none (or a broken one). */
export function genericMessage(status: number): string {
  if (status === 400) return 'The request was not accepted. Check the form and try again.';
  if (status === 401) return 'You are not signed in.';
  if (status === 403) return 'Access denied';
  if (status === 404) return 'Not found.';
  if (status === 409) return 'This conflicts with something already in progress.';
  if (status === 413) return 'The request is too large.';
  if (status === 429) return 'Too many requests. Please wait and try again.';
  if (status === 503) return 'The service is temporarily unavailable. Try again later.';
  if (status >= 500) return 'Something went wrong on the server. Try again later; quote the reference if it persists.';
  return 'The server answered unexpectedly.';
}

/** What a page shows while it keeps retrying by itself after a failure that passes (issue 34). */
export const RETRYING_TITLE = 'The service is temporarily unavailable, retrying…';

/**
 * Whether a failure is the server (or the way to it) being temporarily unavailable: a 503 (e.g. the database did not
 * answer in time; the answer says when to try again in Retry-After), a 502 or 504 of a proxy in front, or no answer
 * at all. Trying again later may work; a page that polls keeps polling.
 */
export function isTemporarilyUnavailable(failure: ApiFailure): boolean {
  return failure.kind === 'network' || failure.status === 502 || failure.status === 503 || failure.status === 504;
}

/** Keeps a server message only when it looks like a sentence for a person, not a dump. */
export function safeMessage(raw: unknown, status: number): string {
  if (typeof raw !== 'string') return genericMessage(status);
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return genericMessage(status);
  const looksRaw =
    /<\/?[a-z][\s\S]*>/i.test(text) ||
    /\bat [\w$.]+\([\w$.]*:\d+\)/.test(text) ||
    /\b(?:java|javax|jakarta|org\.springframework)\.[\w.$]+(?:Exception|Error)\b/.test(text) ||
    /^\s*[{[]/.test(text);
  if (looksRaw) return genericMessage(status);
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

interface Envelope {
  code: string;
  message?: unknown;
  data?: unknown;
  traceId?: unknown;
}

function asEnvelope(value: unknown): Envelope | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.code === 'string' && candidate.code !== '' ? (candidate as unknown as Envelope) : null;
}

function fieldErrorsOf(data: unknown): FieldError[] {
  if (data === null || typeof data !== 'object') return [];
  const list = (data as { fieldErrors?: unknown }).fieldErrors;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    if (item === null || typeof item !== 'object') return [];
    const entry = item as Record<string, unknown>;
    if (typeof entry.field !== 'string') return [];
    return [
      {
        field: entry.field,
        code: typeof entry.code === 'string' ? entry.code : 'INVALID',
        message: safeMessage(entry.message, 400),
      },
    ];
  });
}

function retryAfterOf(data: unknown, headers: Headers): number | null {
  if (data !== null && typeof data === 'object') {
    const seconds = (data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  }
  return parseRetryAfter(headers.get('Retry-After'));
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function networkFailure(message: string, kind: FailureKind = 'network'): ApiFailure {
  return {
    ok: false,
    kind,
    status: 0,
    code: kind === 'aborted' ? 'ABORTED' : NETWORK_ERROR_CODE,
    message,
    traceId: null,
    fieldErrors: [],
    retryAfterSeconds: null,
  };
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onCallerAbort = (): void => controller.abort();
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener('abort', onCallerAbort, { once: true });
  }
  const headers: Record<string, string> = { Accept: 'application/json', [APP_HEADER]: APP_HEADER_VALUE };
  const init: RequestInit = { method, credentials: 'same-origin', headers, signal: controller.signal };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const url = buildUrl(path, options.query);
  const kept = options.conditional ? conditionalAnswers.get(url) : undefined;
  if (kept) headers['If-None-Match'] = kept.etag;

  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, init);
    text = await response.text();
  } catch {
    if (options.signal?.aborted) return networkFailure('Cancelled.', 'aborted');
    return networkFailure(timedOut ? TIMEOUT_MESSAGE : NETWORK_ERROR_MESSAGE);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  if (response.status === 304 && kept) {
    // unchanged since the kept answer: that answer, as it was (no body was sent)
    keepConditionalAnswer(url, kept.etag, kept.answer);
    return kept.answer as ApiSuccess<T>;
  }

  let parsed: unknown = undefined;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  const envelope = asEnvelope(parsed);
  const headerTrace = response.headers.get('X-Trace-Id');
  const traceId =
    envelope && typeof envelope.traceId === 'string' && envelope.traceId !== '' ? envelope.traceId : headerTrace;

  if (response.status >= 200 && response.status < 300 && envelope) {
    const success: ApiSuccess<T> = {
      ok: true,
      status: response.status,
      code: envelope.code,
      message: typeof envelope.message === 'string' ? envelope.message : '',
      data: (envelope.data ?? null) as T,
      traceId,
    };
    const etag = response.headers.get('ETag');
    if (options.conditional) {
      if (etag) keepConditionalAnswer(url, etag, success);
      else conditionalAnswers.delete(url);
    }
    return success;
  }

  const status = response.status;
  if (!envelope) {
    // Not our envelope: a proxy page, an empty body, a legacy endpoint. Never show the body.
    return {
      ok: false,
      kind: 'http',
      status,
      code: status >= 200 && status < 300 ? 'UNEXPECTED_RESPONSE' : `HTTP_${status}`,
      message: status >= 200 && status < 300 ? genericMessage(0) : genericMessage(status),
      traceId,
      fieldErrors: [],
      retryAfterSeconds: status === 429 || status === 503 ? parseRetryAfter(response.headers.get('Retry-After')) : null,
    };
  }
  return {
    ok: false,
    kind: 'http',
    status,
    code: envelope.code,
    message: safeMessage(envelope.message, status),
    traceId,
    fieldErrors: fieldErrorsOf(envelope.data),
    retryAfterSeconds: status === 429 || status === 503 ? retryAfterOf(envelope.data, response.headers) : null,
  };
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
};
