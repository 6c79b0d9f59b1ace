import { TAGS_SHOWN } from './link-filters.ts';

/** At most two tags; the grid adds a '+N' count of the rest (docs/product.md, Links screen; Plans and limits). */
export function LinkTags({ tags, showMore }: { tags: string[]; showMore: boolean }) {
  if (tags.length === 0) return null;
  const rest = tags.length - TAGS_SHOWN;
  return (
    <span className="flex flex-wrap gap-1">
      {tags.slice(0, TAGS_SHOWN).map((tag) => (
        <span key={tag} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
          {tag}
        </span>
      ))}
      {showMore && rest > 0 && (
        <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700">+{rest}</span>
      )}
    </span>
  );
}
