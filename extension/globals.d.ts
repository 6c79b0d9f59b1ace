/** The Linkboard address the extension is built for: wxt.config.ts defines it from LINKBOARD_URL. */
declare const __LINKBOARD_URL__: string;
