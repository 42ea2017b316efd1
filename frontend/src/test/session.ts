import type { ReactNode } from 'react';
import { afterEach, beforeEach } from 'vitest';
import { mockFetch, type RecordedCall, type Reply } from './fetchMock';
import { render, type Rendered } from './render';

/** A fake backend and the rendered trees of one test file, cleaned up after every test (and on `reset`). */
export interface TestSession {
  /** Replaces the API transport for this test (see mockFetch). */
  backend(handler: (call: RecordedCall, index: number) => Reply | Promise<Reply>): ReturnType<typeof mockFetch>;
  /** Renders `ui`; it is unmounted after the test. */
  render(ui: ReactNode): Promise<Rendered>;
  /** Unmounts what was rendered and restores the transport now (to render again within one test). */
  reset(): Promise<void>;
}

export interface SessionOptions {
  /** The test window's URL before every test (e.g. '/console'); left as it is without one. */
  at?: string;
  /** Runs after every test, once the trees are unmounted and the transport restored (e.g. `vi.useRealTimers`). */
  after?: () => void;
}

/** Call once at the top of a test file. */
export function testSession(options: SessionOptions = {}): TestSession {
  let rendered: Rendered[] = [];
  let restores: (() => void)[] = [];
  const reset = async () => {
    for (const r of rendered) await r.unmount();
    rendered = [];
    for (const restore of restores.reverse()) restore();
    restores = [];
  };
  const { at, after } = options;
  if (at !== undefined) {
    beforeEach(() => {
      window.history.replaceState(null, '', at);
    });
  }
  afterEach(async () => {
    await reset();
    after?.();
  });
  return {
    backend(handler) {
      const mock = mockFetch(handler);
      restores.push(mock.restore);
      return mock;
    },
    async render(ui) {
      const r = await render(ui);
      rendered.push(r);
      return r;
    },
    reset,
  };
}
