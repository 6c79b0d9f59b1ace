// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  createShortcutHandler,
  G_TIMEOUT_MS,
  isTyping,
  type KeyInput,
} from '../../../src/features/palette/shortcuts.ts';

const press = (key: string, more: Partial<KeyInput> = {}): KeyInput => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: document.body,
  ...more,
});

/** A clock the test moves by hand. */
function clock() {
  let at = 1000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the shortcut handler', () => {
  it('maps the single keys and Ctrl/Cmd+K', () => {
    const keys = createShortcutHandler(clock().now);
    expect(keys.handle(press('n'), false)).toEqual({ type: 'new' });
    expect(keys.handle(press('/'), false)).toEqual({ type: 'search' });
    expect(keys.handle(press('?', { shiftKey: true } as Partial<KeyInput>), false)).toEqual({ type: 'help' });
    expect(keys.handle(press('k', { ctrlKey: true }), false)).toEqual({ type: 'palette' });
    expect(keys.handle(press('k', { metaKey: true }), false)).toEqual({ type: 'palette' });
    expect(keys.handle(press('x'), false)).toBeNull();
  });

  it('fires no single key in an input, textarea, select or contenteditable; Ctrl+K still opens the palette', () => {
    document.body.innerHTML =
      '<input id="i"><textarea id="t"></textarea><select id="s"></select><div contenteditable="true"><p id="c">x</p></div><div contenteditable="false" id="f"></div>';
    const keys = createShortcutHandler(clock().now);
    for (const id of ['i', 't', 's', 'c']) {
      const target = document.getElementById(id);
      expect(isTyping(target)).toBe(true);
      for (const key of ['n', '/', '?', 'g']) expect(keys.handle(press(key, { target }), false)).toBeNull();
      expect(keys.pending()).toBe(false);
      expect(keys.handle(press('k', { ctrlKey: true, target }), false)).toEqual({ type: 'palette' });
    }
    expect(isTyping(document.getElementById('f'))).toBe(false);
  });

  it('fires nothing with Ctrl, Alt or Meta held (but Ctrl/Cmd+K), nor Alt+Ctrl+K', () => {
    const keys = createShortcutHandler(clock().now);
    for (const mod of [{ ctrlKey: true }, { altKey: true }, { metaKey: true }])
      for (const key of ['n', '/', '?', 'g']) expect(keys.handle(press(key, mod), false)).toBeNull();
    expect(keys.handle(press('k', { ctrlKey: true, altKey: true }), false)).toBeNull();
  });

  it('fires nothing while a dialog is open, Ctrl+K included', () => {
    const keys = createShortcutHandler(clock().now);
    for (const key of ['n', '/', '?', 'g']) expect(keys.handle(press(key), true)).toBeNull();
    expect(keys.handle(press('k', { ctrlKey: true }), true)).toBeNull();
    expect(keys.pending()).toBe(false);
  });

  it('goes to a screen with g then its letter', () => {
    const keys = createShortcutHandler(clock().now);
    expect(keys.handle(press('g'), false)).toBeNull();
    expect(keys.pending()).toBe(true);
    expect(keys.handle(press('c'), false)).toEqual({ type: 'go', page: 'calendar' });
    expect(keys.pending()).toBe(false);
    keys.handle(press('g'), false);
    expect(keys.handle(press('p'), false)).toEqual({ type: 'go', page: 'voting' });
    // A letter that names no screen ends the sequence and does nothing (not even its own shortcut).
    keys.handle(press('g'), false);
    expect(keys.handle(press('n'), false)).toBeNull();
    expect(keys.handle(press('n'), false)).toEqual({ type: 'new' });
  });

  it('forgets a g after the timeout (by the clock, not by sleeping)', () => {
    const time = clock();
    const keys = createShortcutHandler(time.now);
    keys.handle(press('g'), false);
    time.advance(G_TIMEOUT_MS);
    expect(keys.pending()).toBe(true);
    time.advance(1);
    expect(keys.pending()).toBe(false);
    expect(keys.handle(press('c'), false)).toBeNull();
  });

  it('drops a waiting g when a field takes a key, a modifier is held, or a dialog opens', () => {
    const keys = createShortcutHandler(clock().now);
    document.body.innerHTML = '<input id="i">';
    keys.handle(press('g'), false);
    keys.handle(press('c', { target: document.getElementById('i') }), false);
    expect(keys.handle(press('c'), false)).toBeNull();
    keys.handle(press('g'), false);
    keys.handle(press('c'), true);
    expect(keys.pending()).toBe(false);
    keys.handle(press('g'), false);
    keys.reset();
    expect(keys.handle(press('c'), false)).toBeNull();
  });

  it('ignores a held key repeating and a key composing text', () => {
    const keys = createShortcutHandler(clock().now);
    expect(keys.handle(press('n', { repeat: true }), false)).toBeNull();
    expect(keys.handle(press('n', { isComposing: true }), false)).toBeNull();
  });
});
