import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Button } from './button.tsx';
import { retryFailedLoads } from './preloadable.ts';

interface Props {
  children: ReactNode;
  /** Reloads the page; the browser's by default (a seam for tests). */
  reload?: () => void;
}

/**
 * Catches what a screen throws while rendering (a local database query that failed, say)
 * and shows a way out instead of a blank page. A new `resetKey` (the path) tries again (a screen
 * whose code could not be fetched is fetched again), without remounting the children when nothing
 * failed.
 */
class ErrorBoundary extends Component<Props & { resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  override componentDidUpdate(previous: Readonly<{ resetKey: string }>): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) {
      retryFailedLoads();
      this.setState({ error: null });
    }
  }

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    const reload = this.props.reload ?? (() => window.location.reload());
    return (
      <div
        role="alert"
        className="mx-auto mt-16 max-w-md rounded-2xl bg-surface p-8 text-center shadow-sm ring-1 ring-slate-200"
      >
        <p className="text-base font-semibold text-slate-900">Something went wrong</p>
        <p className="mt-2 text-sm text-slate-600">This screen could not be shown. Your saved data was not changed.</p>
        <Button className="mt-4" onClick={reload}>
          Reload
        </Button>
      </div>
    );
  }
}

/** The error boundary for the current screen, reset when the path changes. */
export function ScreenBoundary({ children, reload }: Props) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} reload={reload}>
      {children}
    </ErrorBoundary>
  );
}
