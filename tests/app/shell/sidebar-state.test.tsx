// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { readSidebarCookie, SIDEBAR_COOKIE, useSidebarState } from '../../../src/app/shell/sidebar-state.ts';

function press(init: KeyboardEventInit) {
  act(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', ...init }));
  });
}

describe('sidebar state', () => {
  beforeEach(() => {
    document.cookie = `${SIDEBAR_COOKIE}=; max-age=0; path=/`;
  });

  it('is open by default and reads a stored choice', () => {
    expect(readSidebarCookie('')).toBe(true);
    expect(readSidebarCookie(`a=1; ${SIDEBAR_COOKIE}=false`)).toBe(false);
  });

  it('toggles with Ctrl+B and Cmd+B and keeps the state in the cookie', () => {
    const { result } = renderHook(() => useSidebarState());
    expect(result.current.open).toBe(true);
    press({ ctrlKey: true });
    expect(result.current.open).toBe(false);
    expect(readSidebarCookie(document.cookie)).toBe(false);
    press({ metaKey: true });
    expect(result.current.open).toBe(true);
    press({});
    expect(result.current.open).toBe(true);
  });

  it('writes a cookie that lasts seven days', () => {
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor.get!.call(document),
      set: (value: string) => {
        writes.push(value);
        descriptor.set!.call(document, value);
      },
    });
    const { result } = renderHook(() => useSidebarState());
    act(() => result.current.setOpen(false));
    expect(writes.at(-1)).toBe(`${SIDEBAR_COOKIE}=false; path=/; max-age=604800; SameSite=Lax`);
    Reflect.deleteProperty(document, 'cookie');
  });
});

describe('sidebar state on a phone', () => {
  it('starts closed, toggles, and leaves the remembered desktop state alone', () => {
    document.cookie = `${SIDEBAR_COOKIE}=true; path=/`;
    const { result } = renderHook(() => useSidebarState(true));
    expect(result.current.open).toBe(false);
    press({ ctrlKey: true });
    expect(result.current.open).toBe(true);
    expect(readSidebarCookie(document.cookie)).toBe(true);
  });
});
