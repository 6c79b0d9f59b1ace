import { toast } from '../../ui/toast-store.ts';

export function openLink(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** The device share sheet with title and url, else the url copied (docs/product.md, Links screen). */
export async function shareLink(link: { title: string; url: string }): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: link.title, url: link.url });
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(link.url);
    toast('Link copied to clipboard!', 'success');
  } catch {
    toast('Could not copy the link.', 'error');
  }
}
