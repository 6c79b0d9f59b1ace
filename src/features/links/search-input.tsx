export interface SearchInputProps {
  value: string;
  onChange(value: string): void;
  /** Called with true when the box takes the focus and false when it leaves (to read ahead). */
  onFocusChange?(focused: boolean): void;
}

export function SearchInput({ value, onChange, onFocusChange }: SearchInputProps) {
  return (
    <input
      type="search"
      aria-label="Search"
      aria-keyshortcuts="/"
      placeholder="Search your links..."
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onFocus={onFocusChange && (() => onFocusChange(true))}
      onBlur={onFocusChange && (() => onFocusChange(false))}
      className="w-full max-w-md min-w-0 rounded-lg border border-slate-300 bg-surface px-3 py-2 text-sm"
    />
  );
}
