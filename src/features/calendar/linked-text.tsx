import { externalUrl } from '../../domain/calendar-classify.ts';

/**
 * A title or description that is a valid URL renders as an external link (docs/product.md, Calendar); only http
 * and https become links (docs/product.md, Decisions), anything else stays text.
 */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  const href = externalUrl(text);
  if (href === null) return <span className={className}>{text}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={`break-all text-brand-700 dark:text-brand-300 underline ${className ?? ''}`}
      onClick={(event) => event.stopPropagation()}
    >
      {text}
    </a>
  );
}
