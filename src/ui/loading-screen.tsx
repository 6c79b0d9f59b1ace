/** A full-screen spinner while something the screen needs is loading. */
export function LoadingScreen() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-screen items-center justify-center">
      <span className="border-brand-600 h-8 w-8 animate-spin rounded-full border-4 border-t-transparent" />
    </div>
  );
}
