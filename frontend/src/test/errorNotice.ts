import { expect } from 'vitest';
import { click, flush, waitFor, type Rendered } from './render';

/** What an error notice (components/ErrorNotice) shows: the answer's code, the page's title, the server's message and trace ID. */
export interface ShownError {
  code: string;
  title: string;
  message: string;
  traceId: string;
}

/** Expects the rendered error notice to show `shown`; returns the notice. */
export function expectErrorNotice(r: Rendered, shown: ShownError): HTMLElement {
  const error = r.byTestId('error');
  expect(error.dataset.code).toBe(shown.code);
  expect(error.textContent).toContain(shown.title);
  expect(r.byTestId('error-message').textContent).toBe(shown.message);
  expect(r.byTestId('error-trace-id').textContent).toBe(shown.traceId);
  return error;
}

/** The notice's "Try again" button, if it has one. */
export function tryAgainButton(notice: HTMLElement): HTMLButtonElement | undefined {
  return Array.from(notice.querySelectorAll('button')).find((b) => b.textContent === 'Try again');
}

/** Presses the notice's "Try again" button and lets the new answer settle. */
export async function tryAgain(notice: HTMLElement): Promise<void> {
  await click(tryAgainButton(notice)!);
  await flush();
}

/** Waits until the page shows an error notice's code. */
export async function waitForErrorCode(r: Rendered): Promise<void> {
  await waitFor(() => r.queryByTestId('error-code') !== null);
}
