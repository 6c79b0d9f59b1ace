export interface SearchInputProps {
  value: string;
  onChange(value: string): void;
}

export function SearchInput({ value, onChange }: SearchInputProps) {
  return (
    <input
      type="search"
      aria-label="Search"
      aria-keyshortcuts="/"
      placeholder="Search your links..."
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="w-full max-w-md min-w-0 rounded-lg border border-slate-300 bg-surface px-3 py-2 text-sm"
    />
  );
}
