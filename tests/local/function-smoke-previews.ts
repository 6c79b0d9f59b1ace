/** The smoke cases of the link functions: link-preview, link-image and check-links. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { NOT_JSON } from '../../supabase/functions/_shared/input.ts';
import { TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { bearer, error, FORGED, noCors, preflight, wrongMethod, type SmokeCase } from './function-smoke-cases.ts';

export const previewCases: SmokeCase[] = [
  // link-preview
  {
    fn: 'link-preview',
    title: 'answers the state of a link whose page was read, fetching nothing',
    request: ({ fx }) => ({ method: 'POST', headers: bearer(fx.payer.token), body: { link_id: fx.previewedLinkId } }),
    status: 200,
    body: { state: 'done' },
  },
  {
    fn: 'link-preview',
    title: 'refuses a link id that is no UUID with 400',
    request: ({ fx }) => ({ method: 'POST', headers: bearer(fx.user.token), body: { link_id: 'x' } }),
    status: 400,
    body: error('link_id must be a link id (a UUID).'),
  },
  {
    fn: 'link-preview',
    title: 'refuses a body that is no JSON with 400',
    request: ({ fx }) => ({ method: 'POST', headers: bearer(fx.user.token), body: '{' }),
    status: 400,
    body: error(NOT_JSON),
  },
  {
    fn: 'link-preview',
    title: 'answers 404 for a link that does not exist',
    request: ({ fx }) => ({ method: 'POST', headers: bearer(fx.user.token), body: { link_id: randomUUID() } }),
    status: 404,
    body: error('Link not found.'),
  },
  {
    fn: 'link-preview',
    title: 'refuses an invalid session with 401',
    request: () => ({ method: 'POST', headers: bearer(FORGED), body: { link_id: randomUUID() } }),
    status: 401,
    body: error('Sign in to ask for a preview'),
  },
  wrongMethod('link-preview', 'GET'),
  preflight('link-preview', 'POST'),

  // link-image
  {
    fn: 'link-image',
    title: 'answers 404 for a link with no picture',
    request: ({ fx }) => ({ query: `?link=${fx.previewedLinkId}&kind=icon` }),
    status: 404,
    body: error('No picture for this link.'),
  },
  {
    fn: 'link-image',
    title: 'refuses a kind other than icon or image with 400',
    request: ({ fx }) => ({ query: `?link=${fx.previewedLinkId}&kind=file` }),
    status: 400,
    body: error('kind must be icon or image.'),
  },
  {
    fn: 'link-image',
    title: 'refuses a link given twice with 400',
    request: () => ({ query: `?link=${randomUUID()}&link=${randomUUID()}&kind=icon` }),
    status: 400,
    body: { error: expect.any(String) },
  },
  wrongMethod('link-image', 'POST'),
  preflight('link-image', 'GET'),

  // check-links
  {
    fn: 'check-links',
    title: 'runs a round of the broken-link check with the service-role key',
    request: () => ({ method: 'POST', headers: bearer(TEST_SERVICE_ROLE_KEY) }),
    status: 200,
    body: { checked: expect.any(Number), broken: expect.any(Number), changed: expect.any(Number) },
  },
  {
    fn: 'check-links',
    title: 'refuses a user’s token with 401',
    request: ({ fx }) => ({ method: 'POST', headers: bearer(fx.user.token) }),
    status: 401,
    body: error('Unauthorized: send the service-role key'),
  },
  wrongMethod('check-links', 'GET', error('Method not allowed: check-links takes POST')),
  noCors('check-links'),
];
