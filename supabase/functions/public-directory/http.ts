import { corsHeadersFor, jsonResponder } from '../_shared/http.ts';

export { fetchAs, userToken } from '../_shared/http.ts';

export const corsHeaders = corsHeadersFor({
  methods: 'GET',
  allowHeaders: ['x-directory-password'],
  exposeHeaders: ['Retry-After'],
});

export const json = jsonResponder(corsHeaders);
