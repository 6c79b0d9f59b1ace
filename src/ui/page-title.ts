import { useEffect } from 'react';

export const PRODUCT_NAME = 'Linkboard';

/** Sets the document title as '{page} — Linkboard'. */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = page ? `${page} — ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
