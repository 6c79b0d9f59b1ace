import { corsHeadersFor, jsonResponder } from '../_shared/http.ts';

export { fetchAs, userToken } from '../_shared/http.ts';

export const corsHeaders = corsHeadersFor({ methods: 'GET', allowHeaders: ['x-directory-password'] });

export const json = jsonResponder(corsHeaders);
