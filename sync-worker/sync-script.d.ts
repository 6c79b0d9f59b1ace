/** The address of the service worker's sync script (vite.config.ts, `workerSyncBundle`). */
declare module 'virtual:linkboard-sync-script' {
  const url: string;
  export default url;
}
