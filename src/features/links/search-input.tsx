export function SearchInput({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <input
      type="search"
      aria-label="Search"
      placeholder="Search your links..."
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="w-full max-w-md min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
    />
  );
}
