// @vitest-environment jsdom
/**
 * The slot rule (src/app/slots.tsx): each `src/features/<feature>/<name>-slot.ts` exports one
 * context `<Name>Slot`, and the app fills it with `fill<Name>`.
 */
import '@testing-library/jest-dom/vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { useContext, type Context } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import * as slots from '../../src/app/slots.tsx';

afterEach(cleanup);

const modules = import.meta.glob<Record<string, unknown>>('../../src/features/**/*-slot.ts', { eager: true });
const pascal = (kebab: string) => kebab.replace(/(^|-)([a-z])/g, (_m, _dash, letter: string) => letter.toUpperCase());
const declared = Object.entries(modules).map(([path, exports]) => ({
  path,
  name: pascal(
    path
      .split('/')
      .at(-1)!
      .replace(/-slot\.ts$/, ''),
  ),
  exports,
}));

describe('the slots', () => {
  it('finds the slots of the features', () => {
    expect(declared.map(({ name }) => name).sort()).toEqual([
      'ImportBookmarks',
      'RequestSync',
      'TeamPolls',
      'Transfer',
    ]);
  });

  it('declares one context per slot file, named after the file', () => {
    for (const { path, name, exports } of declared) {
      expect([path, Object.keys(exports)]).toEqual([path, [`${name}Slot`]]);
      expect(exports[`${name}Slot`]).toHaveProperty('Provider');
    }
  });

  it('fills every slot with its fill<Name>', () => {
    const seen = new Map<string, unknown>();
    function Probe({ name, slot }: { name: string; slot: Context<unknown> }) {
      seen.set(name, useContext(slot));
      return null;
    }
    render(
      <slots.SlotFillers>
        {declared.map(({ name, exports }) => (
          <Probe key={name} name={name} slot={exports[`${name}Slot`] as Context<unknown>} />
        ))}
      </slots.SlotFillers>,
    );
    for (const { name } of declared) {
      const fill = (slots as Record<string, unknown>)[`fill${name}`];
      expect([name, typeof fill]).toEqual([name, 'function']);
      expect([name, seen.get(name)]).toEqual([name, fill]);
    }
  });

  it('keeps slots out of the features but in *-slot.ts files', () => {
    const root = join(import.meta.dirname, '../../src/features');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
    const contexts = files.filter((file) => readFileSync(join(root, file), 'utf8').includes('createContext'));
    expect(contexts.every((file) => file.endsWith('-slot.ts'))).toBe(true);
    expect(contexts.length).toBe(declared.length);
  });
});
