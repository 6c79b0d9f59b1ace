// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualRows, windowAt } from '../../../src/features/links/virtual-rows.tsx';

afterEach(cleanup);

describe('the fixed-height window of rows', () => {
  const list = { count: 50_000, rowHeight: 40, height: 400, overscan: 6 };

  it('mounts the rows in view plus the overscan, wherever the list is scrolled', () => {
    expect(windowAt(0, list)).toEqual({ first: 0, end: 16 });
    expect(windowAt(40 * 25_000, list)).toEqual({ first: 24_994, end: 25_016 });
    expect(windowAt(40 * 49_990, list)).toEqual({ first: 49_984, end: 50_000 });
    expect(windowAt(0, { ...list, count: 3 })).toEqual({ first: 0, end: 3 });
    expect(windowAt(0, { ...list, count: 0 })).toEqual({ first: 0, end: 0 });
  });

  it('renders that window at its offsets, and moves it with the scroll', () => {
    const onRange = vi.fn();
    render(
      <VirtualRows
        label="Rows"
        count={list.count}
        rowHeight={list.rowHeight}
        height={list.height}
        renderRows={(rows) =>
          rows.map((row) => (
            <div key={row.index} data-top={row.start}>
              row {row.index}
            </div>
          ))
        }
        onRange={onRange}
      />,
    );
    const region = screen.getByRole('region', { name: 'Rows' });
    expect(region.firstElementChild).toHaveStyle({ height: `${40 * 50_000}px` });
    expect(screen.getByText('row 15')).toHaveAttribute('data-top', '600');
    expect(screen.queryByText('row 16')).toBeNull();
    expect(onRange).toHaveBeenLastCalledWith(0, 16);
    act(() => {
      region.scrollTop = 40 * 1_000 + 10;
      region.dispatchEvent(new Event('scroll'));
    });
    expect(screen.getByText('row 1000')).toHaveAttribute('data-top', '40000');
    expect(screen.queryByText('row 0')).toBeNull();
    expect(onRange).toHaveBeenLastCalledWith(994, 1_016);
  });

  it("tells the new range in the scroll's own synchronous render, so the caller's read starts in that task", () => {
    function Caller() {
      const [range, setRange] = useState('none');
      return (
        <>
          <p data-testid="range">{range}</p>
          <VirtualRows
            label="Rows"
            count={list.count}
            rowHeight={list.rowHeight}
            height={list.height}
            renderRows={(rows) => rows.map((row) => <div key={row.index}>row {row.index}</div>)}
            onRange={(first, end) => setRange(`${first}-${end}`)}
          />
        </>
      );
    }
    render(<Caller />);
    expect(screen.getByTestId('range')).toHaveTextContent('0-16');
    const region = screen.getByRole('region', { name: 'Rows' });
    region.scrollTop = 40 * 30_000;
    // Not inside act: only what the scroll handler renders synchronously is on the page yet.
    region.dispatchEvent(new Event('scroll'));
    expect(screen.getByTestId('range')).toHaveTextContent('29994-30016');
  });

  it("mounts only the rows in view in a far scroll's own render, and the overscan after its paint", async () => {
    render(
      <VirtualRows
        label="Rows"
        {...list}
        renderRows={(rows) => rows.map((row) => <div key={row.index}>row {row.index}</div>)}
      />,
    );
    const region = screen.getByRole('region', { name: 'Rows' });
    const mounted = () =>
      Array.from(region.firstElementChild!.children, (row) => Number(row.textContent!.replace('row ', '')));
    const from = (first: number, end: number) => Array.from({ length: end - first }, (_, i) => first + i);
    region.scrollTop = 40 * 1_000;
    region.dispatchEvent(new Event('scroll'));
    // The scroll's synchronous render: rows 1,000 to 1,009 fill the 400 px in view, nothing around them.
    expect(mounted()).toEqual(from(1_000, 1_010));
    // After the frame is painted: 6 rows of overscan on each side.
    await waitFor(() => expect(mounted()).toEqual(from(994, 1_016)));
    // A scroll of one row mounts its whole window at once: the overscan stays ahead of a wheel or a drag.
    region.scrollTop = 40 * 1_001;
    region.dispatchEvent(new Event('scroll'));
    expect(mounted()).toEqual(from(995, 1_017));
  });
});
