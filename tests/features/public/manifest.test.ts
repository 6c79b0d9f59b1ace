import { describe, expect, it } from 'vitest';
import { manifest } from '../../../src/app/manifest.ts';

describe('web app manifest', () => {
  it('declares a share target so shared pages open Add Link with their title, text and url', () => {
    expect(manifest.share_target).toEqual({
      action: '/share-target',
      method: 'GET',
      params: { title: 'title', text: 'text', url: 'url' },
    });
  });
});
