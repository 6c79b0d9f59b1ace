import { build, defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { manifest } from './src/app/manifest.ts';
import { signedInFeatures } from './src/domain/pages.ts';

/**
 * How the app's modules are put in chunks (docs/bench.md: the JS each screen loads). Left to itself,
 * Rolldown makes a chunk of every set of modules the same set of lazy screens shares: the signed-in
 * dashboard came as some forty files, many of a few hundred bytes, each compressed alone. Three
 * groups instead, each loaded whole by every screen that loads any of it:
 * - index: what main.tsx imports statically, and the few small modules every screen uses (the
 *   backend's address, the page title, the cookie consent record);
 * - signed-in-area: what src/app/signed-in-area.tsx imports statically (the shell, Dexie, the sync
 *   engine), less what a visitor's page can reach: visitors never load it, and every signed-in
 *   screen needs all of it (each renders inside the signed-in area);
 * - supabase: the auth and PostgREST clients with the modules that only use them (the current
 *   user's profile, sign-in and sign-out).
 */
const signedInEntry = /[\\/]src[\\/]app[\\/]signed-in-area\.tsx$/;
/**
 * Lazy screens rendered only inside the signed-in area: the feature folders of the workspace's pages
 * and slots, from the page table (src/domain/pages.ts).
 */
const signedInScreens = new RegExp(`[\\\\/]src[\\\\/]features[\\\\/](${signedInFeatures.join('|')})[\\\\/]`);
/** The bench build's hook (src/perf, dead code in other builds): no visitor's page loads it. */
const benchHook = /[\\/]src[\\/]perf[\\/]/;
const everyScreen = /[\\/]src[\\/](backend[\\/]config|ui[\\/]page-title|ui[\\/]cookie-consent)\.ts$/;
const supabaseParts =
  /[\\/](node_modules[\\/]@supabase[\\/](auth-js|postgrest-js)[\\/]|src[\\/]backend[\\/](page-client|supabase|auth-options|anon-key|profile|auth)\.ts$)/;

function chunkPlan(): { plugin: Plugin; initial(id: string): boolean; signedIn(id: string): boolean } {
  const initial = new Set<string>();
  const signedIn = new Set<string>();
  const plugin: Plugin = {
    name: 'linkboard:chunk-plan',
    apply: 'build',
    buildEnd() {
      initial.clear();
      signedIn.clear();
      const info = (id: string) => this.getModuleInfo(id);
      const ids = [...this.getModuleIds()];
      const entries = ids.filter((id) => info(id)?.isEntry);
      // What the entry loads before anything lazy.
      const stack = [...entries];
      while (stack.length) {
        const id = stack.pop()!;
        if (initial.has(id)) continue;
        initial.add(id);
        stack.push(...(info(id)?.importedIds ?? []));
      }
      // What a visitor can load: the entries and every lazy module they reach, static or lazy,
      // except the signed-in area and its screens.
      const visitor = new Set<string>();
      stack.push(...entries);
      while (stack.length) {
        const id = stack.pop()!;
        if (visitor.has(id)) continue;
        visitor.add(id);
        const module = info(id);
        if (!module) continue;
        stack.push(...module.importedIds);
        stack.push(
          ...module.dynamicallyImportedIds.filter(
            (lazy) => !signedInEntry.test(lazy) && !signedInScreens.test(lazy) && !benchHook.test(lazy),
          ),
        );
      }
      stack.push(...ids.filter((id) => signedInEntry.test(id)));
      while (stack.length) {
        const id = stack.pop()!;
        if (signedIn.has(id) || visitor.has(id)) continue;
        signedIn.add(id);
        stack.push(...(info(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, initial: (id) => initial.has(id), signedIn: (id) => signedIn.has(id) };
}
const chunks = chunkPlan();

/**
 * The browser's own Temporal where it has one: the app's imports of temporal-polyfill resolve to
 * src/domain/temporal-runtime.ts, which loads the polyfill only where Temporal is missing
 * (main.tsx waits for it before the first render). A plugin of the app's build only: the service
 * worker's build (vite-plugin-pwa) and the tests import the polyfill itself.
 */
function nativeTemporal(): Plugin {
  const runtime = fileURLToPath(new URL('./src/domain/temporal-runtime.ts', import.meta.url));
  return {
    name: 'linkboard:native-temporal',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'temporal-polyfill' && importer !== runtime ? runtime : null;
    },
  };
}

/**
 * The service worker's sync (sync-worker/sync-bundle.ts: the engine, Dexie, supabase-js) as a script
 * of its own, `sw-sync-<hash>.js`, which sw.js imports when a Background Sync event needs it instead of
 * evaluating it on every start (a warm start's navigation waits for the worker: docs/bench.md, The
 * offline warm start). `app` builds it (a classic script, as importScripts needs) and emits it with the
 * app's files; `worker`, a plugin of the worker's build, gives sw.js its address. Not precached: the
 * browser stores it with the worker that imports it while installing.
 */
function workerSyncBundle(): { app: Plugin; worker: Plugin } {
  const entry = fileURLToPath(new URL('./sync-worker/sync-bundle.ts', import.meta.url));
  const id = 'virtual:linkboard-sync-script';
  let fileName: string | null = null;
  const app: Plugin = {
    name: 'linkboard:worker-sync-bundle',
    apply: 'build',
    async generateBundle() {
      const result = await build({
        configFile: false,
        root: fileURLToPath(new URL('.', import.meta.url)),
        logLevel: 'warn',
        mode: 'production',
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          write: false,
          target: 'es2022',
          sourcemap: false,
          modulePreload: false,
          rolldownOptions: { input: entry, output: { format: 'iife', entryFileNames: 'sw-sync.js' } },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
      const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk');
      if (!chunk || chunk.type !== 'chunk') throw new Error('the worker sync bundle built no script');
      fileName = `sw-sync-${createHash('sha256').update(chunk.code).digest('hex').slice(0, 10)}.js`;
      this.emitFile({ type: 'asset', fileName, source: chunk.code });
    },
  };
  const worker: Plugin = {
    name: 'linkboard:worker-sync-address',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(loaded) {
      if (loaded !== `\0${id}`) return null;
      if (!fileName) throw new Error('the worker sync bundle is built with the app, before sw.js');
      return `export default ${JSON.stringify(`/${fileName}`)};`;
    },
  };
  return { app, worker };
}
const workerSync = workerSyncBundle();

// The local stack (supabase/local) serves the API on the same origin in production;
// in dev, Vite proxies the API paths to it.
const stack = process.env.LINKBOARD_STACK_URL ?? 'http://127.0.0.1:54321';

export default defineConfig({
  plugins: [
    nativeTemporal(),
    chunks.plugin,
    workerSync.app,
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
        globIgnores: ['sw-sync-*.js'],
        buildPlugins: { vite: [workerSync.worker] },
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: {
      ...Object.fromEntries(
        ['/auth/v1', '/rest/v1', '/functions/v1', '/api', '/_mailbox', '/_checkout'].map((path) => [path, stack]),
      ),
      // Realtime's WebSocket (supabase/local/realtime-socket.ts).
      '/realtime/v1': { target: stack, ws: true },
    },
  },
  // No source maps in a production build: they would publish the sources (and sw.js.map) to anyone.
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    // Every browser the app supports (ES2022, module workers) has <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'index',
              test: (id) => chunks.initial(id) || everyScreen.test(id),
              includeDependenciesRecursively: false,
            },
            { name: 'signed-in-area', test: chunks.signedIn, includeDependenciesRecursively: false },
            { name: 'supabase', test: supabaseParts, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
