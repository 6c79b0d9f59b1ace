import { useState, type KeyboardEvent } from 'react';
import { cleanTags } from '../../domain/validation.ts';

/** Tags (docs/product.md, Validation): trimmed, duplicates ignored, Enter adds. */
export function TagInput({ tags, onChange }: { tags: string[]; onChange(tags: string[]): void }) {
  const [draft, setDraft] = useState('');

  function add() {
    if (draft.trim() !== '') onChange(cleanTags([...tags, draft]));
    setDraft('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  }

  return (
    <div>
      <label className="block text-sm font-medium text-slate-800">
        Tags
        <input
          className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
          value={draft}
          placeholder="Type a tag and press Enter"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={add}
        />
      </label>
      {tags.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Tags">
          {tags.map((tag) => (
            <li
              key={tag}
              className="flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800"
            >
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                className="text-slate-500 hover:text-slate-900"
                onClick={() => onChange(tags.filter((t) => t !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
