import { notifyManager } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AppProviders } from '../AppProviders';
import { BrowserRouter } from '../router/router';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// TanStack Query hands its updates to React on a timer by default; the tests settle microtasks (`flush`).
notifyManager.setScheduler(queueMicrotask);

export interface Rendered {
  container: HTMLElement;
  unmount(): Promise<void>;
  byTestId<E extends HTMLElement = HTMLElement>(id: string): E;
  queryByTestId<E extends HTMLElement = HTMLElement>(id: string): E | null;
  allByTestId<E extends HTMLElement = HTMLElement>(id: string): E[];
}

/** Renders `ui` inside the app's providers and a router on the test window's URL (set it before with `visit`). */
export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  let root: Root | null = null;
  await act(async () => {
    root = createRoot(container);
    root.render(
      <BrowserRouter>
        <AppProviders>{ui}</AppProviders>
      </BrowserRouter>,
    );
  });
  const query = <E extends HTMLElement>(id: string) => container.querySelector<E>(`[data-testid="${id}"]`);
  return {
    container,
    async unmount() {
      await act(async () => root?.unmount());
      container.remove();
    },
    byTestId<E extends HTMLElement>(id: string) {
      const el = query<E>(id);
      if (!el) throw new Error(`no element with data-testid="${id}" in:\n${container.innerHTML}`);
      return el;
    },
    queryByTestId: query,
    allByTestId<E extends HTMLElement>(id: string) {
      return Array.from(container.querySelectorAll<E>(`[data-testid="${id}"]`));
    },
  };
}

/** Lets pending promises and React updates settle. */
export async function flush(times = 3): Promise<void> {
  for (let i = 0; i < times; i++) {
    await act(async () => {
      await Promise.resolve();
    });
  }
}

export async function click(el: HTMLElement): Promise<void> {
  await act(async () => {
    el.click();
  });
}

/** Goes one entry back in the history, as the browser's back button does, and gives the router time to notice. */
export async function goBack(): Promise<void> {
  await act(async () => {
    window.history.back();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

/** Sets a controlled input's value the way React notices it. */
export async function type(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): Promise<void> {
  const proto = Object.getPrototypeOf(el) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  await act(async () => {
    if (setter) setter.call(el, value);
    else el.value = value;
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

export async function submit(form: HTMLFormElement): Promise<void> {
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

/** Waits (inside act) until `check` passes, e.g. for a lazily loaded page; fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

/** Puts the test window at `path`, with `state` as the router's history state (what a link's `state` gives). */
export function visit(path: string, state: unknown = null): void {
  window.history.replaceState({ usr: state, key: 'visit', idx: 0 }, '', path);
}
