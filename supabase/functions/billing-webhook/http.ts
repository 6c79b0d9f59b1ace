import { jsonResponder } from '../_shared/http.ts';

/** The provider calls from its servers: no CORS headers, so no browser page can read the answers. */
export const json = jsonResponder({});
