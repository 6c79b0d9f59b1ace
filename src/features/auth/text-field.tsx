import { useId } from 'react';

interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: string;
  autoComplete?: string;
  hint?: string;
  required?: boolean;
}

export function TextField({ label, value, onChange, type = 'text', autoComplete, hint, required }: TextFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="focus:border-brand-500 rounded-lg border border-slate-300 px-3 py-2 text-sm"
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}
