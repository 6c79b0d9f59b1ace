// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';

let mounted = 0;

function Watcher() {
  useEffect(() => {
    mounted += 1;
    return () => {
      mounted -= 1;
    };
  }, []);
  return <p>watching</p>;
}

// A screen left mounted after its test keeps its live queries answering after the file's jsdom is
// gone, and React then renders into a window that no longer exists: tests/support/setup.ts
// unmounts after each test.
describe('every jsdom test', () => {
  it('mounts a screen', () => {
    render(<Watcher />);
    expect(mounted).toBe(1);
  });

  it('starts with the previous test’s screens unmounted', () => {
    expect(mounted).toBe(0);
    expect(document.body.textContent).toBe('');
  });
});
