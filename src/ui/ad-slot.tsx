/**
 * The ad slot Free users see (spec 2.5 and 2.10, design 4.2): a placeholder, no ad network is
 * loaded. 'banner' is the dashboard's wide strip, 'rectangle' the board's medium rectangle.
 */
export function AdSlot({ shape }: { shape: 'banner' | 'rectangle' }) {
  const size = shape === 'banner' ? 'h-24' : 'mx-auto h-[15.625rem] w-full max-w-[18.75rem] self-start lg:mx-0';
  return (
    <aside
      aria-label="Advertisement"
      className={`flex items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase ${size}`}
    >
      Advertisement
    </aside>
  );
}
