/**
 * The browser extension's build (wxt, Manifest V3): `npm run build:extension` writes
 * extension/.output/chrome-mv3 (load it unpacked) and a zip beside it (to publish).
 * LINKBOARD_URL at build time is the address it opens until its options page saves another;
 * by default the one `npm start` serves (README).
 */
import { defineConfig } from 'wxt';
import { linkboardOrigin } from './lib/share.ts';

const address = process.env.LINKBOARD_URL ?? 'http://localhost:4173';
const builtFor = linkboardOrigin(address);
if (builtFor === null)
  throw new Error(`LINKBOARD_URL must be an http(s) origin, such as https://linkboard.example.com: ${address}`);

export default defineConfig({
  // Explicit imports (wxt/browser, wxt/utils/…): the root tsconfig checks this folder without wxt's generated types.
  imports: false,
  manifestVersion: 3,
  // The e2e journey builds its own copy for its server's address (e2e/extension.spec.ts).
  outDir: process.env.LINKBOARD_EXTENSION_OUT ?? '.output',
  zip: { artifactTemplate: 'linkboard-extension-{{browser}}.zip' },
  vite: () => ({ define: { __LINKBOARD_URL__: JSON.stringify(builtFor) } }),
  manifest: {
    name: 'Save to Linkboard',
    description: 'Save the page you are on, or a link on it, to your Linkboard directories.',
    version: '0.1.0',
    // No host permission: a save opens a tab. activeTab gives the clicked tab's address and title,
    // and (with scripting) its selected text; contextMenus the menu item; storage the address.
    permissions: ['activeTab', 'contextMenus', 'scripting', 'storage'],
    action: { default_title: 'Save to Linkboard', default_icon: { 192: 'icon-192.png' } },
    icons: { 192: 'icon-192.png' },
  },
});
