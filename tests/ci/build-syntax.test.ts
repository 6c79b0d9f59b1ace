/**
 * The build's syntax check (.ci/build-syntax.ts): a script the ES2022 build ships must parse as
 * ES2022 and make no RegExp with the v flag, the form in which the build passes an ES2024
 * literal through.
 */
import { describe, expect, it } from 'vitest';
import { es2022Problem } from '../../.ci/build-syntax.ts';

describe('es2022Problem', () => {
  it('passes ES2022 modules and scripts, RegExp calls with other flags, and a lone "v" string', () => {
    expect(es2022Problem('export const a = /x/u; class B { #c = 1; static { this.d = 2; } }', 'module')).toBeNull();
    expect(es2022Problem("self.x = new RegExp(s, 'gi'); m.get(k, 'v');", 'script')).toBeNull();
  });

  it('names a v-flag literal, and the RegExp call the build rewrites one into', () => {
    expect(es2022Problem('const a = /[\\p{L}--a]/v;', 'module')).toMatch(/Invalid regular expression flag/);
    expect(es2022Problem('const a = RegExp(`__t__(?<i>\\\\d+)`, `gv`);', 'module')).toMatch(/v flag \(ES2024\)/);
    expect(es2022Problem('f(() => new RegExp(p, "iv"));', 'module')).toMatch(/v flag \(ES2024\)/);
  });

  it('names syntax newer than ES2022', () => {
    expect(es2022Problem('using handle = open();', 'module')).not.toBeNull();
  });
});
