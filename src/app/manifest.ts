import type { ManifestOptions } from 'vite-plugin-pwa';

/** The web app manifest: what the browser needs to install Linkboard. */
export const manifest: Partial<ManifestOptions> = {
  name: 'Linkboard',
  short_name: 'Linkboard',
  description: 'Organise, plan, decide: links, calendar and team polls that work offline.',
  start_url: '/Dashboard',
  scope: '/',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#4f46e5',
  // Sharing a page from another app opens Add Link prefilled (handled at /share-target by the links screen).
  share_target: {
    action: '/share-target',
    method: 'GET',
    params: { title: 'title', text: 'text', url: 'url' },
  },
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};
