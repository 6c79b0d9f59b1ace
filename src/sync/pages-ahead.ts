/**
 * A pull's pages fetched ahead of the writer. Each page's cursor comes in the
 * page before it, so the pages are asked for one after the other; each is asked for as soon as
 * the one before arrives, while the writer writes an earlier one, up to `depth` pages waiting
 * (read or on their way) that the writer has not taken yet. A failed page ends the fetching:
 * the writer meets the failure when it takes that page.
 */
export interface Page {
  more: boolean;
  cursor: string;
}

export class PagesAhead<P extends Page> {
  private readonly waiting: Promise<P>[] = [];
  /** Pages asked for so far. */
  private asked = 0;
  /** The cursor to go on from once the writer takes a page (fetching paused at `depth`). */
  private paused: string | undefined;

  constructor(
    /** Fetches the page after `cursor`; `index` counts the pages asked for before it. */
    private readonly fetchPage: (cursor: string | null, index: number) => Promise<P>,
    private readonly depth: number,
    first: string | null,
  ) {
    this.fetch(first);
  }

  /** The next page, in order. Only asked for after a page that said there are more. */
  next(): Promise<P> {
    if (this.waiting.length === 0) this.resume();
    const page = this.waiting.shift();
    if (!page) throw new Error('PagesAhead: no page after the last one');
    if (this.waiting.length < this.depth) this.resume();
    return page;
  }

  private resume(): void {
    if (this.paused === undefined) return;
    const cursor = this.paused;
    this.paused = undefined;
    this.fetch(cursor);
  }

  private fetch(cursor: string | null): void {
    const page = this.fetchPage(cursor, this.asked);
    this.asked += 1;
    this.waiting.push(page);
    page.then(
      (answer) => {
        if (!answer.more) return;
        if (this.waiting.length < this.depth) this.fetch(answer.cursor);
        else this.paused = answer.cursor;
      },
      // Met by the writer when it takes this page.
      () => undefined,
    );
  }
}
