const directories = [
  { name: 'Client work', color: 'bg-indigo-500', links: 12 },
  { name: 'Reading list', color: 'bg-emerald-500', links: 8 },
  { name: 'Trip planning', color: 'bg-amber-500', links: 5 },
  { name: 'Team resources', color: 'bg-rose-500', links: 21 },
];

/** A decorative sketch of the workspace beside the hero; hidden from assistive technology. */
export function HeroPreview() {
  return (
    <div aria-hidden="true" className="rounded-2xl border border-slate-200 bg-surface p-4 shadow-xl">
      <div className="mb-4 flex gap-1.5">
        <span className="h-3 w-3 rounded-full bg-slate-200" />
        <span className="h-3 w-3 rounded-full bg-slate-200" />
        <span className="h-3 w-3 rounded-full bg-slate-200" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        {directories.map((dir) => (
          <div key={dir.name} className="rounded-xl border border-slate-100 p-3">
            <span className={`mb-2 block h-2 w-10 rounded-full ${dir.color}`} />
            <span className="block text-sm font-semibold text-slate-800">{dir.name}</span>
            <span className="block text-xs text-slate-600">{dir.links} links</span>
          </div>
        ))}
      </div>
      <div className="mt-3 rounded-xl bg-brand-50 dark:bg-brand-950/40 p-3 text-sm text-slate-800">
        <span className="font-semibold">Today</span> · Design review 10:00 · Submit invoice
      </div>
    </div>
  );
}
