import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ChunkLoadError } from '../release/lazyWithGuard';

interface Props {
  children: ReactNode;
  /** Changing the key (e.g. the path) clears a previous error. */
  resetKey: string;
}

interface State {
  error: unknown;
  resetKey: string;
}

/**
 * Catches rendering failures of a page. A page chunk that failed to load (a release removed it) is
 * explained as such: the release guard is already reloading the page or showing "Refresh page".
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept for the browser console only; nothing technical is shown on the page.
    console.error('Page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof ChunkLoadError) {
      return (
        <section className="panel" data-testid="chunk-error" role="alert">
          <h1 className="page-heading">This page could not be loaded</h1>
          <p>A new version of Changeflow was probably released while this page was open. The page reloads itself; if it does not, use “Refresh page”.</p>
        </section>
      );
    }
    return (
      <section className="panel" data-testid="page-error" role="alert">
        <h1 className="page-heading">Something went wrong on this page</h1>
        <p>Try another page, or reload this one. If it keeps happening, tell the maintainers what you were doing.</p>
      </section>
    );
  }
}
