import { beforeEach, describe, expect, it } from 'vitest';
import { TOAST_LIMIT, toast, useToasts } from '../../src/ui/toast-store.ts';

describe('toast store', () => {
  beforeEach(() => useToasts.setState({ toasts: [] }));

  it('keeps at most 20 entries, dropping the oldest', () => {
    for (let i = 1; i <= 25; i++) toast(`notice ${i}`);
    const { toasts } = useToasts.getState();
    expect(TOAST_LIMIT).toBe(20);
    expect(toasts).toHaveLength(20);
    expect(toasts[0]?.message).toBe('notice 6');
    expect(toasts.at(-1)?.message).toBe('notice 25');
  });

  it('dismisses one toast by id', () => {
    const id = toast('bye', 'error');
    toast('stay');
    useToasts.getState().dismiss(id);
    expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(['stay']);
  });
});
