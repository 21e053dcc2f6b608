import { pxToMm } from '@portal/contract/rules';

/**
 * The sizes met among a work's files, counted: each image in mm at its density (with its pixels and
 * dpi), each PDF page in mm (with the PDF's page count). Shown in 文件尺寸 before a product is chosen:
 * by the preflight's rows from what the browser measured, by the server's rows from the parse.
 */
export class SizeTally {
  readonly counts = new Map<string, number>();
  /** Files not measured yet (the preflight's images still being read). */
  waiting = 0;

  image(width: number, height: number, dpi: number): void {
    this.add(`${r1(pxToMm(width, dpi))}×${r1(pxToMm(height, dpi))}mm|${width}×${height}px ${dpi}dpi`);
  }

  pdfPage(widthMm: number, heightMm: number, pages: number): void {
    this.add(`${r1(widthMm)}×${r1(heightMm)}mm|PDF ${pages}页`);
  }

  /** Each size met, in mm only ('50.8×33.9mm'). */
  mmSizes(): string[] {
    return [...this.counts.keys()].map(mmOf);
  }

  private add(text: string): void {
    this.counts.set(text, (this.counts.get(text) ?? 0) + 1);
  }
}

/** A size's key is `<mm>|<detail>`. */
const mmOf = (text: string) => text.slice(0, text.indexOf('|'));
const SIZES_LISTED = 3;
const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The sizes, two lines each (mm, then pixels and dpi). 测量中… takes no line of its own once a size is listed, and two
 * lines before: a 预检 row grew a line when its first measure came, and pushed the rows under it 21 px down (CI run).
 */
export function SizesList({ tally, testId }: { tally: SizeTally; testId: string }) {
  const listed = [...tally.counts].slice(0, SIZES_LISTED);
  const measuring = tally.waiting > 0 ? <span className="works-muted">{listed.length > 0 ? ' · 测量中…' : '测量中…'}</span> : null;
  return (
    <div className="works-stack works-small" data-testid={testId}>
      {listed.map(([text, n], i) => {
        const [mm, detail] = text.split('|');
        return (
          <span key={text} className="works-stack">
            <span style={{ whiteSpace: 'nowrap' }}>
              {mm}
              {n > 1 ? ` ×${n}` : ''}
            </span>
            <span className="works-muted" style={{ whiteSpace: 'nowrap' }}>
              {detail}
              {i === listed.length - 1 && tally.counts.size <= SIZES_LISTED ? measuring : null}
            </span>
          </span>
        );
      })}
      {tally.counts.size > SIZES_LISTED ? <span className="works-muted">等{tally.counts.size}种尺寸{measuring}</span> : null}
      {listed.length === 0 && measuring ? (
        <>
          {measuring}
          <span aria-hidden="true">{'\u00a0'}</span>
        </>
      ) : null}
    </div>
  );
}
