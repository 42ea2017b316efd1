import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { type ApiFailure } from '../api/client';
import { submitRequest } from '../api/endpoints';
import type { SubmitRequestBody, Target } from '../api/types';
import { newOperationId } from '../logic/operationId';
import { durationRule, endIfWrittenAt, forDurationRule, isoOfFor, lastDateWithin, type ForUnit } from '../logic/durations';
import { formatUntilDay, todayIso } from '../logic/format';
import { useSecondsUntil } from '../logic/hooks';
import { Link } from '../router/router';
import { ErrorNotice } from './ErrorNotice';
import { PreviewPanel } from './PreviewPanel';

export interface RequestFormValues {
  targetKey: string;
  subjectId: string;
  reason: string;
  expiresAt: string;
}

export interface RequestFormProps {
  targets: Target[];
  initial?: Partial<RequestFormValues>;
  /** A fresh form (new operationId) was asked for. */
  onNewRequest: () => void;
  /** ACCEPTED: the caller opens the request page. */
  onAccepted: (operationId: string) => void;
  /** A renewal of a grant in effect (from My bindings): says so and starts at the expiry, the one thing to choose. */
  renewing?: RenewalPrefill;
  /** Injected for tests. */
  generateId?: () => string;
  now?: () => number;
}

/** The grant in effect that a new request renews (another expiry is a renewal, docs/api.md). */
export interface RenewalPrefill {
  /** Its current expiry (ISO-8601). */
  expiresAt: string;
}

/** `duration`: the "for …" choice (issue 32 item 3), sent instead of `expiresAt`. */
type FieldName = keyof RequestFormValues | 'duration';
const FIELDS: readonly FieldName[] = ['targetKey', 'subjectId', 'reason', 'expiresAt', 'duration'];

/** How the request's end is chosen: a date ("until"), or a length counted from when the approved change is written. */
type EndKind = 'until' | 'for';
const END_KINDS: readonly { kind: EndKind; label: string }[] = [
  { kind: 'until', label: 'Until a date' },
  { kind: 'for', label: 'For a time' },
];

type Phase = 'editing' | 'submitting' | 'duplicate';

function clientErrors(values: RequestFormValues, today: string): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {};
  if (!values.targetKey) errors.targetKey = 'Choose a target.';
  if (!values.reason.trim()) errors.reason = 'Say why you need this change.';
  if (values.expiresAt && values.expiresAt < today) errors.expiresAt = 'The expiry date cannot be in the past.';
  return errors;
}

/**
 * The request form. Its operationId is generated once, when the form opens, and sent unchanged on
 * every retry of this form, so a retry after a lost answer is recognised by the server
 * (DUPLICATE_SUBMIT) instead of creating a second request. A new form (the parent remounts it with
 * a new key) gets a new operationId.
 */
export function RequestForm({ targets, initial, onNewRequest, onAccepted, renewing, generateId, now = Date.now }: RequestFormProps) {
  const [operationId] = useState(() => (generateId ?? newOperationId)());
  const [values, setValues] = useState<RequestFormValues>({
    targetKey: initial?.targetKey ?? '',
    subjectId: initial?.subjectId ?? '',
    reason: initial?.reason ?? '',
    expiresAt: initial?.expiresAt ?? '',
  });
  const [endKind, setEndKind] = useState<EndKind>('until');
  const [forAmount, setForAmount] = useState('');
  const [forUnit, setForUnit] = useState<ForUnit>('hours');
  const [phase, setPhase] = useState<Phase>('editing');
  const [attempts, setAttempts] = useState(0);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [otherFieldErrors, setOtherFieldErrors] = useState<string[]>([]);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [duplicateOf, setDuplicateOf] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const secondsLeft = useSecondsUntil(retryAt, now);
  const baseId = useId();
  const ids = Object.fromEntries(FIELDS.map((f) => [f, `${baseId}-${f}`])) as Record<FieldName, string>;

  const expiresRef = useRef<HTMLInputElement>(null);
  // A renewal starts at the expiry, the one thing to choose (after the page heading took the focus on navigation).
  useEffect(() => {
    if (renewing) expiresRef.current?.focus();
  }, [renewing]);

  const waitingForRetry = secondsLeft !== null && secondsLeft > 0;
  const locked = phase === 'duplicate';
  const canSubmit = phase === 'editing' && !waitingForRetry;
  const target = targets.find((t) => t.key === values.targetKey);
  // a target that takes no durations offers "until" only
  const asksFor = endKind === 'for' && target?.allowsDurations !== false;

  const update = (field: FieldName) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (fieldErrors[field]) setFieldErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canSubmit) return;
    const local = clientErrors(asksFor ? { ...values, expiresAt: '' } : values, todayIso(new Date(now())));
    const duration = asksFor ? isoOfFor(forAmount, forUnit) : null;
    if (asksFor && !duration) local.duration = 'Give a whole number of hours or days, at least 1.';
    setFieldErrors(local);
    setOtherFieldErrors([]);
    if (Object.keys(local).length > 0) {
      setStatus('Please correct the highlighted fields.');
      return;
    }
    const body: SubmitRequestBody = { operationId, targetKey: values.targetKey, reason: values.reason.trim() };
    if (values.subjectId.trim()) body.subjectId = values.subjectId.trim();
    if (duration) body.duration = duration;
    else if (!asksFor && values.expiresAt) body.expiresAt = values.expiresAt;

    setPhase('submitting');
    setAttempts((a) => a + 1);
    setError(null);
    setRetryAt(null);
    setStatus('Submitting your request…');
    const result = await submitRequest(body);

    if (result.ok) {
      const id = result.data?.operationId ?? operationId;
      if (result.code === 'DUPLICATE_SUBMIT') {
        // Already submitted earlier (e.g. the first answer was lost): not a new request. Stay locked.
        setDuplicateOf(id);
        setPhase('duplicate');
        setStatus('This request was already submitted.');
        return;
      }
      setStatus('Request submitted.');
      onAccepted(id);
      return;
    }

    setPhase('editing');
    setError(result);
    if (result.code === 'INVALID_REQUEST' && result.fieldErrors.length > 0) {
      const mapped: Partial<Record<FieldName, string>> = {};
      const others: string[] = [];
      for (const fe of result.fieldErrors) {
        if ((FIELDS as readonly string[]).includes(fe.field)) mapped[fe.field as FieldName] = fe.message;
        else others.push(`${fe.field}: ${fe.message}`);
      }
      setFieldErrors(mapped);
      setOtherFieldErrors(others);
    }
    if (result.status === 429) {
      const seconds = result.retryAfterSeconds ?? 30;
      setRetryAt(now() + seconds * 1000);
      setStatus(`Too many submissions. You can try again in ${seconds} seconds.`);
    } else {
      setStatus('The request was not submitted.');
    }
  }

  const describedBy = (field: FieldName, hint?: string) =>
    [hint, fieldErrors[field] ? `${ids[field]}-error` : undefined].filter(Boolean).join(' ') || undefined;

  /** What every field's control carries: its id, value and change handler, and its invalid state and descriptions. */
  const control = (field: FieldName, hint?: string) => ({
    id: ids[field],
    value: field === 'duration' ? forAmount : values[field],
    onChange: update(field),
    'aria-invalid': fieldErrors[field] ? true : undefined,
    'aria-describedby': describedBy(field, hint),
  });

  const fieldError = (field: FieldName) =>
    fieldErrors[field] ? (
      <p className="field-error" id={`${ids[field]}-error`} data-testid={`field-error-${field}`}>
        {fieldErrors[field]}
      </p>
    ) : null;

  return (
    <form className="request-form" onSubmit={handleSubmit} noValidate data-testid="request-form" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`}>{renewing ? 'Renew access' : 'New request'}</h2>
      <p className="form-meta">
        Request reference: <code data-testid="operation-id">{operationId}</code>
      </p>
      {renewing ? (
        <p className="notice notice-info" id={`${baseId}-renewal`} data-testid="renewal-notice">
          Renewing the access of {values.subjectId || 'you'} to <code>{values.targetKey}</code>, in effect until{' '}
          {formatUntilDay(renewing.expiresAt)}: choose another expiry date, or a time counted from when the renewal is written. The renewal is approved like a new request; until
          it takes effect the current grant stays as it is.
        </p>
      ) : null}

      <fieldset disabled={locked || phase === 'submitting'} className="form-fields">
        <legend className="visually-hidden">Request details</legend>
        <div className="field">
          <label htmlFor={ids.targetKey}>Target</label>
          <select
            {...control('targetKey', target ? `${ids.targetKey}-desc` : undefined)}
            data-testid="field-target"
            required
          >
            <option value="">Choose a target…</option>
            {targets.map((t) => (
              <option key={t.key} value={t.key}>
                {t.name || t.key}
              </option>
            ))}
          </select>
          {target ? (
            <p className="field-hint" id={`${ids.targetKey}-desc`}>
              {target.description}
              {target.batchable
                ? `${/[.!?]\s*$/.test(target.description) || target.description === '' ? '' : '.'} Merged together with other requests in batch rounds.`
                : ''}
            </p>
          ) : null}
          {fieldError('targetKey')}
        </div>

        <div className="field">
          <label htmlFor={ids.subjectId}>
            Subject <span className="optional">(optional)</span>
          </label>
          <input
            {...control('subjectId', `${ids.subjectId}-hint`)}
            type="text"
            autoComplete="off"
            placeholder="Defaults to you"
            data-testid="field-subject"
          />
          <p className="field-hint" id={`${ids.subjectId}-hint`}>
            Who the change is for: an account or employee ID. Leave empty for yourself.
          </p>
          {fieldError('subjectId')}
        </div>

        <div className="field">
          <label htmlFor={ids.reason}>Reason</label>
          <textarea
            {...control('reason')}
            rows={3}
            required
            data-testid="field-reason"
          />
          {fieldError('reason')}
        </div>

        {target?.allowsDurations !== false ? (
          <fieldset className="field end-kind" data-testid="end-kind">
            <legend>How long</legend>
            {END_KINDS.map(({ kind, label }) => (
              <label key={kind}>
                <input
                  type="radio"
                  name={`${baseId}-end-kind`}
                  value={kind}
                  checked={endKind === kind}
                  onChange={() => setEndKind(kind)}
                  data-testid={`end-kind-${kind}`}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
        ) : null}

        {asksFor ? (
          <div className="field">
            <label htmlFor={ids.duration}>For</label>
            <span className="duration-inputs">
              <input
                id={ids.duration}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={forAmount}
                onChange={(event) => {
                  setForAmount(event.target.value);
                  if (fieldErrors.duration) setFieldErrors((e) => ({ ...e, duration: undefined }));
                }}
                aria-invalid={fieldErrors.duration ? true : undefined}
                aria-describedby={describedBy('duration', `${ids.duration}-rule`)}
                data-testid="field-duration"
              />
              <select
                aria-label="Unit"
                value={forUnit}
                onChange={(event) => setForUnit(event.target.value as ForUnit)}
                data-testid="field-duration-unit"
              >
                <option value="hours">hours</option>
                <option value="days">days</option>
              </select>
            </span>
            <p className="field-hint" id={`${ids.duration}-rule`} data-testid="duration-rule">
              {forDurationRule(target)}
            </p>
            <p className="field-hint" data-testid="duration-preview-note">
              The preview shows the end as if the change were written now; it is written after approval, so the end
              will be later.
            </p>
            {fieldError('duration')}
          </div>
        ) : (
        <div className="field">
          <label htmlFor={ids.expiresAt}>
            Expires on <span className="optional">(optional)</span>
          </label>
          <input
            {...control('expiresAt', [renewing ? `${baseId}-renewal` : null, target ? `${ids.expiresAt}-rule` : null]
              .filter(Boolean).join(' ') || undefined)}
            type="date"
            min={todayIso(new Date(now()))}
            max={lastDateWithin(target?.maxDuration, now())}
            ref={expiresRef}
            data-testid="field-expires"
          />
          {target ? (
            <p className="field-hint" id={`${ids.expiresAt}-rule`} data-testid="expires-rule">
              {durationRule(target)}
            </p>
          ) : null}
          {fieldError('expiresAt')}
        </div>
        )}
      </fieldset>

      <PreviewPanel
        targetKey={values.targetKey}
        subjectId={values.subjectId.trim()}
        operationId={operationId}
        expiresAt={asksFor ? (endIfWrittenAt(forAmount, forUnit, now()) ?? '') : values.expiresAt}
      />

      {otherFieldErrors.length > 0 ? (
        <ul className="field-error" data-testid="field-errors-other">
          {otherFieldErrors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}

      {error ? <ErrorNotice error={error} title="Your request was not submitted." testId="submit-error" /> : null}

      {retryAt !== null ? (
        <p className="notice notice-info" data-testid="retry-after" data-seconds={secondsLeft ?? 0}>
          {waitingForRetry
            ? `You can try again in ${secondsLeft} s (at ${new Date(retryAt).toLocaleTimeString()}).`
            : 'You can try again now.'}
        </p>
      ) : null}

      {locked && duplicateOf ? (
        <div className="notice notice-info" data-testid="duplicate-notice">
          <p>
            <strong>Already submitted.</strong> This form was submitted before, so no new request was created.
          </p>
          <p>
            <Link to={`/requests/${encodeURIComponent(duplicateOf)}`} data-testid="duplicate-link">
              Follow the request you already submitted
            </Link>
          </p>
        </div>
      ) : null}

      {error?.code === 'IDEMPOTENCY_KEY_REUSED' ? (
        <p className="notice notice-info">
          This form was already used for a different request. Start a new request to submit these details.
        </p>
      ) : null}

      <p className="visually-hidden" role="status" aria-live="polite" data-testid="form-status">
        {status}
      </p>

      <div className="form-actions">
        <button type="submit" disabled={!canSubmit} data-testid="submit-request">
          {phase === 'submitting' ? 'Submitting…' : attempts > 0 && !locked ? 'Submit again' : 'Submit request'}
        </button>
        <button type="button" className="button-secondary" onClick={onNewRequest} data-testid="new-request">
          New request
        </button>
      </div>
    </form>
  );
}
