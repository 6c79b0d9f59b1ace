/** The loading skeleton (docs/product.md, Dashboard): a title bar and 4 blocks. */
export function DashboardSkeleton() {
  return (
    <div role="status" aria-label="Loading dashboard" className="animate-pulse">
      <div className="mb-6 h-8 w-64 max-w-full rounded-lg bg-slate-200" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="h-24 rounded-2xl bg-slate-200" />
        ))}
      </div>
    </div>
  );
}
