import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, type RecordedCall, type Reply } from '../test/fetchMock';
import { TARGETS, view } from '../test/fixtures';
import { click, flush, type, waitFor, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { RequestForm, type RequestFormProps } from './RequestForm';

const session = testSession({ after: () => vi.useRealTimers() });
const { render } = session;
let r: Rendered | null = null;

/** Submissions answer from `replies` in order; the preview answers "unavailable". */
function backend(replies: Reply[]) {
  let n = 0;
  const mock = session.backend((call: RecordedCall) => {
    if (call.url.startsWith('/api/requests/preview')) return envelope('PREVIEW_UNAVAILABLE', null);
    if (call.method === 'POST' && call.url === '/api/requests') return replies[Math.min(n++, replies.length - 1)] ?? 'network-error';
    return { status: 404, body: { code: 'NOT_FOUND', message: 'Not found', data: null, traceId: 't' } };
  });
  return { posts: () => mock.calls.filter((c) => c.method === 'POST') };
}

async function renderForm(props: Partial<RequestFormProps> = {}) {
  const onAccepted = vi.fn();
  const generateId = vi.fn(() => `op-${generateId.mock.calls.length}`);
  r = await render(
    <RequestForm targets={TARGETS} onAccepted={onAccepted} onNewRequest={() => undefined} generateId={generateId} {...props} />,
  );
  return { onAccepted, generateId, r };
}

async function fill(rendered: Rendered, values: { target?: string; reason?: string; subject?: string } = {}) {
  await type(rendered.byTestId<HTMLSelectElement>('field-target'), values.target ?? 'db-prod-readonly');
  await type(rendered.byTestId<HTMLTextAreaElement>('field-reason'), values.reason ?? 'On-call this week');
  if (values.subject) await type(rendered.byTestId<HTMLInputElement>('field-subject'), values.subject);
}

async function submitForm(rendered: Rendered) {
  await click(rendered.byTestId('submit-request'));
  await flush();
}

describe('RequestForm', () => {
  it('generates the operationId once when the form opens and reuses it on every retry', async () => {
    const api = backend(['network-error', envelope('INTERNAL_ERROR', null, 500), envelope('ACCEPTED', view({ operationId: 'op-1' }), 202)]);
    const { onAccepted, generateId, r: form } = await renderForm();
    expect(generateId).toHaveBeenCalledTimes(1);
    expect(form.byTestId('operation-id').textContent).toBe('op-1');

    await fill(form, { subject: 'bob' });
    await submitForm(form);
    expect(form.byTestId('submit-error').textContent).toMatch(/cannot reach the server/i);
    await submitForm(form);
    expect(form.byTestId('error-code').textContent).toBe('INTERNAL_ERROR');
    await submitForm(form);

    const bodies = api.posts().map((c) => c.body as Record<string, unknown>);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => b.operationId))).toEqual(new Set(['op-1']));
    expect(bodies[0]).toEqual({ operationId: 'op-1', targetKey: 'db-prod-readonly', subjectId: 'bob', reason: 'On-call this week' });
    expect(generateId).toHaveBeenCalledTimes(1);
    expect(onAccepted).toHaveBeenCalledWith('op-1');
  });

  it('stays locked after DUPLICATE_SUBMIT and links to the request instead of showing a new one', async () => {
    const api = backend([envelope('DUPLICATE_SUBMIT', view({ operationId: 'op-1' }), 202)]);
    const { onAccepted, r: form } = await renderForm();
    await fill(form);
    await submitForm(form);

    expect(onAccepted).not.toHaveBeenCalled();
    const notice = form.byTestId('duplicate-notice');
    expect(notice.textContent).toMatch(/already submitted/i);
    expect(form.byTestId<HTMLAnchorElement>('duplicate-link').getAttribute('href')).toBe('/requests/op-1');
    expect(form.byTestId<HTMLButtonElement>('submit-request').disabled).toBe(true);
    expect(form.container.querySelector('fieldset')?.disabled).toBe(true);
    expect(form.byTestId('form-status').textContent).toMatch(/already submitted/i);

    await submitForm(form);
    expect(api.posts()).toHaveLength(1);
  });

  it('shows 400 field errors next to their fields', async () => {
    backend([
      envelope('INVALID_REQUEST', { fieldErrors: [{ field: 'subjectId', code: 'UNKNOWN', message: 'No such person.' }, { field: 'other', code: 'X', message: 'Odd.' }] }, 400, {
        message: 'Some fields are invalid.',
        traceId: 'tr-400',
      }),
    ]);
    const { r: form } = await renderForm();
    await fill(form, { subject: 'nobody' });
    await submitForm(form);
    expect(form.byTestId('field-error-subjectId').textContent).toBe('No such person.');
    expect(form.byTestId('field-subject').getAttribute('aria-invalid')).toBe('true');
    expect(form.byTestId('field-subject').getAttribute('aria-describedby')).toContain(form.byTestId('field-error-subjectId').id);
    expect(form.byTestId('field-errors-other').textContent).toContain('other: Odd.');
    expect(form.byTestId('error-trace-id').textContent).toBe('tr-400');
    expect(form.byTestId<HTMLButtonElement>('submit-request').disabled).toBe(false);
  });

  it('checks required fields before sending anything', async () => {
    const api = backend([envelope('ACCEPTED', view(), 202)]);
    const { r: form } = await renderForm();
    await submitForm(form);
    expect(form.byTestId('field-error-targetKey')).toBeTruthy();
    expect(form.byTestId('field-error-reason')).toBeTruthy();
    expect(api.posts()).toHaveLength(0);
  });

  it.each([
    ['REQUEST_IN_PROGRESS', 409, 'An active request exists for this subject and target.'],
    ['IDEMPOTENCY_KEY_REUSED', 422, 'This reference was used for a different request.'],
    ['SERVICE_CLOSED', 403, 'Submissions are closed right now.'],
  ])('shows %s as message, code and traceId', async (code, status, message) => {
    backend([envelope(code, null, status, { message, traceId: `tr-${status}` })]);
    const { onAccepted, r: form } = await renderForm();
    await fill(form);
    await submitForm(form);
    expect(form.byTestId('error-message').textContent).toBe(message);
    expect(form.byTestId('error-code').textContent).toBe(code);
    expect(form.byTestId('error-trace-id').textContent).toBe(`tr-${status}`);
    expect(form.container.textContent).not.toContain('{');
    expect(onAccepted).not.toHaveBeenCalled();
  });

  it('after 429 shows when to retry and re-enables submitting then, with the same operationId', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
    const api = backend([
      { status: 429, body: { code: 'RATE_LIMITED', message: 'Too many submissions, please try again later', data: { retryAfterSeconds: 5 }, traceId: 'tr-429' }, headers: { 'Retry-After': '5' } },
      envelope('ACCEPTED', view({ operationId: 'op-1' }), 202),
    ]);
    const { onAccepted, r: form } = await renderForm();
    await fill(form);
    await submitForm(form);

    const button = form.byTestId<HTMLButtonElement>('submit-request');
    expect(button.disabled).toBe(true);
    expect(form.byTestId('retry-after').textContent).toMatch(/try again in 5 s/);
    expect(form.byTestId('error-code').textContent).toBe('RATE_LIMITED');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(form.byTestId('retry-after').textContent).toMatch(/try again in 3 s/);
    expect(button.disabled).toBe(true);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(form.byTestId('retry-after').textContent).toMatch(/try again now/i);
    expect(button.disabled).toBe(false);

    await submitForm(form);
    expect(api.posts().map((c) => (c.body as { operationId: string }).operationId)).toEqual(['op-1', 'op-1']);
    expect(onAccepted).toHaveBeenCalledWith('op-1');
  });

  it('previews with the form\'s operationId and expiry: OK shows the line, PREVIEW_UNAVAILABLE only says "no preview"', async () => {
    let available = true;
    const mock = session.backend((call: RecordedCall) => {
      if (call.url.startsWith('/api/requests/preview')) {
        return available
          ? envelope('OK', {
              project: 'platform/access-config',
              filePath: 'grants/db-prod-readonly.txt',
              removedLine: null,
              addedLine: 'bob until=2099-12-31T00:00:00Z op=op-1',
            })
          : envelope('PREVIEW_UNAVAILABLE', null, 200, { message: 'No preview right now; you can still submit.' });
      }
      return envelope('NOT_FOUND', null, 404);
    });
    const { r: form } = await renderForm();
    await fill(form, { subject: 'bob' });
    await type(form.byTestId<HTMLInputElement>('field-expires'), '2099-12-31');
    await waitFor(() => form.queryByTestId('preview')?.dataset.previewState === 'ready');
    const previews = mock.calls.filter((c) => c.url.startsWith('/api/requests/preview'));
    const last = new URL(previews[previews.length - 1]!.url, 'http://localhost');
    expect(Object.fromEntries(last.searchParams)).toEqual({
      targetKey: 'db-prod-readonly',
      subjectId: 'bob',
      operationId: 'op-1',
      expiresAt: '2099-12-31',
    });
    expect(form.byTestId('preview').textContent).toContain('+ bob until=2099-12-31T00:00:00Z op=op-1');
    expect(form.byTestId('preview').textContent).toContain('grants/db-prod-readonly.txt');

    available = false;
    await type(form.byTestId<HTMLInputElement>('field-subject'), 'carol');
    await waitFor(() => form.queryByTestId('preview')?.dataset.previewState === 'unavailable');
    expect(form.byTestId('preview').textContent).toMatch(/no preview is available/i);
    expect(form.byTestId<HTMLButtonElement>('submit-request').disabled).toBe(false);
  });

  it('describes the chosen target as sentences, batch rounds included', async () => {
    backend([]);
    const targets = [{ key: 'vpn-staging', name: 'VPN to staging', description: 'Network access to staging', batchable: true, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true }];
    const { r: form } = await renderForm({ targets });
    await type(form.byTestId<HTMLSelectElement>('field-target'), 'vpn-staging');
    expect(form.container.querySelector('.field-hint')?.textContent).toBe(
      'Network access to staging. Merged together with other requests in batch rounds.',
    );
  });

  it('shows the target\'s duration rule at the expiry field and offers no date beyond its maximum', async () => {
    backend([]);
    const targets = [
      { key: 'db-prod-readonly', name: 'Production DB', description: 'Read access.', batchable: false,
        maxDuration: 'P30D', defaultDuration: 'P7D', allowsNever: false, allowsDurations: true },
      { key: 'wiki-editors', name: 'Wiki editors', description: 'Edit the wiki.', batchable: true, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true },
    ];
    const { r: form } = await renderForm({ targets, now: () => Date.parse('2026-12-07T10:00:00Z') });
    expect(form.container.querySelector('[data-testid="expires-rule"]')).toBeNull();

    await type(form.byTestId<HTMLSelectElement>('field-target'), 'db-prod-readonly');

    expect(form.byTestId('expires-rule').textContent).toBe(
      'This target grants at most 30 days. Without a date the access ends after 7 days.',
    );
    expect(form.byTestId<HTMLInputElement>('field-expires').getAttribute('max')).toBe('2027-01-05');
    expect(form.byTestId('field-expires').getAttribute('aria-describedby')).toContain(form.byTestId('expires-rule').id);

    await type(form.byTestId<HTMLSelectElement>('field-target'), 'wiki-editors');
    expect(form.byTestId('expires-rule').textContent).toBe('Without a date the access has no end.');
    expect(form.byTestId('field-expires').getAttribute('max')).toBeNull();
  });

  describe('for a time instead of until a date (issue 32 item 3)', () => {
    const limited = [
      { key: 'db-prod-readonly', name: 'Production DB', description: 'Read access.', batchable: false,
        maxDuration: 'P30D', defaultDuration: 'P7D', allowsNever: false, allowsDurations: true },
      { key: 'ends-only', name: 'Ends only', description: 'Ends only.', batchable: false,
        maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: false },
    ];

    it('sends the duration instead of an expiry and says the time starts when the approved change is written', async () => {
      const api = backend([envelope('ACCEPTED', view({ operationId: 'op-1', duration: 'PT8H' }), 202)]);
      const { onAccepted, r: form } = await renderForm({ targets: limited });
      await fill(form);
      await type(form.byTestId<HTMLInputElement>('field-expires'), '2026-12-20');
      await click(form.byTestId('end-kind-for'));
      expect(form.container.querySelector('[data-testid="field-expires"]')).toBeNull();
      expect(form.byTestId('duration-rule').textContent).toBe(
        'The time starts when the approved change is written to the grant file, so a slow approval does not shorten it; ' +
          'the minutes of its pipeline and deploy count. This target grants at most 30 days.',
      );
      await type(form.byTestId<HTMLInputElement>('field-duration'), '8');
      await submitForm(form);

      expect(api.posts().map((c) => c.body)).toEqual([
        { operationId: 'op-1', targetKey: 'db-prod-readonly', reason: 'On-call this week', duration: 'PT8H' },
      ]);
      expect(onAccepted).toHaveBeenCalledWith('op-1');
    });

    it('sends days as P<n>D and refuses a number that is no whole number of at least 1 before sending', async () => {
      const api = backend([envelope('ACCEPTED', view({ operationId: 'op-1', duration: 'P3D' }), 202)]);
      const { r: form } = await renderForm({ targets: limited });
      await fill(form);
      await click(form.byTestId('end-kind-for'));
      await type(form.byTestId<HTMLInputElement>('field-duration'), '0');
      await submitForm(form);
      expect(api.posts()).toHaveLength(0);
      expect(form.byTestId('field-error-duration').textContent).toBe('Give a whole number of hours or days, at least 1.');
      expect(form.byTestId('field-duration').getAttribute('aria-invalid')).toBe('true');

      await type(form.byTestId<HTMLInputElement>('field-duration'), '3');
      await type(form.byTestId<HTMLSelectElement>('field-duration-unit'), 'days');
      await submitForm(form);
      expect(api.posts().map((c) => (c.body as Record<string, unknown>).duration)).toEqual(['P3D']);
    });

    it('shows the server\'s duration field error at the field', async () => {
      backend([
        envelope('INVALID_REQUEST', { fieldErrors: [{ field: 'duration', code: 'TOO_FAR',
          message: 'this target grants at most 30 days (P30D); choose a shorter duration' }] }, 400),
      ]);
      const { r: form } = await renderForm({ targets: limited });
      await fill(form);
      await click(form.byTestId('end-kind-for'));
      await type(form.byTestId<HTMLInputElement>('field-duration'), '31');
      await type(form.byTestId<HTMLSelectElement>('field-duration-unit'), 'days');
      await submitForm(form);

      expect(form.byTestId('field-error-duration').textContent).toContain('at most 30 days');
    });

    it('previews the line with the end it would get if written now, never without an end', async () => {
      const mock = session.backend((call: RecordedCall) =>
        call.url.startsWith('/api/requests/preview') ? envelope('PREVIEW_UNAVAILABLE', null) : envelope('NOT_FOUND', null, 404));
      const { r: form } = await renderForm({ targets: limited, now: () => Date.parse('2026-12-07T10:00:30Z') });
      await fill(form);
      await click(form.byTestId('end-kind-for'));
      await type(form.byTestId<HTMLInputElement>('field-duration'), '8');
      await waitFor(() => mock.calls.some((c) => c.url.includes('expiresAt=2026-12-07T18%3A00%3A00Z')));

      expect(form.byTestId('duration-preview-note').textContent).toContain('as if the change were written now');
    });

    it('offers until a date only where the target takes no durations', async () => {
      backend([]);
      const { r: form } = await renderForm({ targets: limited });
      await type(form.byTestId<HTMLSelectElement>('field-target'), 'db-prod-readonly');
      await click(form.byTestId('end-kind-for'));
      expect(form.byTestId('field-duration')).toBeTruthy();

      await type(form.byTestId<HTMLSelectElement>('field-target'), 'ends-only');
      expect(form.container.querySelector('[data-testid="end-kind"]')).toBeNull();
      expect(form.container.querySelector('[data-testid="field-duration"]')).toBeNull();
      expect(form.byTestId('field-expires')).toBeTruthy();
    });
  });
});
