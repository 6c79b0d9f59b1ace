import { useEffect } from 'react';

export interface PageMeta {
  title: string;
  description: string;
}

/** Sets `<meta {attribute}="{key}">` to `content`; returns how to put back what was there. */
function setMeta(attribute: 'name' | 'property', key: string, content: string): () => void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  const previous = tag?.getAttribute('content') ?? null;
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.append(tag);
  }
  tag.setAttribute('content', content);
  const placed = tag;
  return () => {
    if (previous === null) placed.remove();
    else placed.setAttribute('content', previous);
  };
}

/**
 * The page's description and social metadata (Open Graph, Twitter card) while it is shown
 * (docs/product.md, Dashboard); the tags as they were come back when it goes.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  useEffect(() => {
    const restore = [
      setMeta('name', 'description', description),
      setMeta('property', 'og:title', title),
      setMeta('property', 'og:description', description),
      setMeta('property', 'og:type', 'website'),
      setMeta('name', 'twitter:card', 'summary'),
      setMeta('name', 'twitter:title', title),
      setMeta('name', 'twitter:description', description),
    ];
    return () => restore.reverse().forEach((undo) => undo());
  }, [title, description]);
}
