import { describe, expect, it } from 'vitest';
import { preloadFiles, screensFor } from '../../supabase/local/route-preloads.ts';

const banner = 'src/features/marketing/cookie-banner.tsx';

describe('route preloads', () => {
  it('names the screen a visitor address renders, with the cookie banner', () => {
    expect(screensFor('/')).toEqual(['chunk:public-layout', 'src/features/marketing/landing-page.tsx', banner]);
    expect(screensFor('/GDPR')).toEqual(['chunk:public-layout', 'src/features/marketing/gdpr-page.tsx', banner]);
    expect(screensFor('/login/')).toEqual(['src/features/auth/login-page.tsx', banner]);
    expect(screensFor('/Links/ada/dir/3f0c')).toEqual(['src/features/public/shared-directory-page.tsx', banner]);
    expect(screensFor('/ada_lovelace')).toEqual(['src/features/public/public-profile-page.tsx', banner]);
    expect(screensFor('/PublicProfile/ada')).toEqual(['src/features/public/public-profile-page.tsx', banner]);
  });

  it('preloads nothing for the signed-in pages, reserved segments or files', () => {
    for (const path of ['/Dashboard/ada', '/Links/ada', '/Calendar', '/dashboard', '/index.html', '/a']) {
      expect(screensFor(path)).toEqual([]);
    }
  });

  it('lists the JS of the screens and their static imports, never the entry', () => {
    const manifest = {
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-2.js'] },
      '_shared-2.js': { file: 'assets/shared-2.js', name: 'shared' },
      '_public-layout-3.js': { file: 'assets/public-layout-3.js', name: 'public-layout', imports: ['index.html'] },
      'src/features/marketing/landing-page.tsx': {
        file: 'assets/landing-page-4.js',
        imports: ['index.html', '_shared-2.js', '_public-layout-3.js'],
      },
    };
    expect(preloadFiles(manifest, ['chunk:public-layout', 'src/features/marketing/landing-page.tsx'])).toEqual([
      'assets/public-layout-3.js',
      'assets/landing-page-4.js',
      'assets/shared-2.js',
    ]);
  });
});
