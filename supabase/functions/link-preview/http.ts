import { corsHeadersFor, jsonResponder } from '../_shared/http.ts';

export const corsHeaders = corsHeadersFor({ methods: 'POST', exposeHeaders: ['Retry-After'] });

export const json = jsonResponder(corsHeaders);
