/** The toast area's chunk (Radix Toast), loaded with the first toast or ahead of a change (src/app/sync/write-path.ts). */
export const loadToaster = () => import('./toaster.tsx');
