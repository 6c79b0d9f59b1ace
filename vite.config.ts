import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { manifest } from './src/app/manifest.ts';

// The local stack (supabase/local) serves the API on the same origin in production;
// in dev, Vite proxies the API paths to it.
const stack = process.env.LINKBOARD_STACK_URL ?? 'http://127.0.0.1:54321';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sync-worker',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,woff2}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: Object.fromEntries(
      ['/auth/v1', '/rest/v1', '/functions/v1', '/sync/v1', '/api', '/_mailbox', '/_checkout'].map((path) => [
        path,
        stack,
      ]),
    ),
  },
  // No source maps in a production build: they would publish the sources (and sw.js.map) to anyone.
  build: { target: 'es2022', sourcemap: false, manifest: true },
});
