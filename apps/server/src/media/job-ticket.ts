import { readFile } from 'node:fs/promises';
import QRCode from 'qrcode';

/** What a job ticket shows of one order (services/production.ts fills it). */
export type TicketInfo = {
  salesOrderNumber: string;
  articleName: string;
  hubName: string;
  productName: string;
  sku: string;
  copies: number;
  /** One line per component: its name, size in mm, the pages the order holds for it and its paper. */
  components: Array<{ name: string; size: string; pages: number; pageList?: string; paper: string }>;
  pageCount: number;
  toning: string;
  addresses: string[];
  createdAt: string;
  /** What the check warned of when the order was placed, and the customer ordered with (a resolution below the SKU's). */
  warnings: string[];
};

/** The face of the collection the tickets use: Simplified Chinese. */
const FACE = 'NotoSansCJKsc-Regular';
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;

type Loaded = { lib: typeof import('@cantoo/pdf-lib'); fontBytes: Buffer; fontkit: { create: (b: Uint8Array, name?: string) => unknown } };
let loaded: Promise<Loaded> | undefined;

/**
 * pdf-lib, fontkit and the font are loaded with the first ticket (a server that never prints one pays
 * nothing). The font file is parsed once: fontkit's parse of a CJK collection takes ~150 ms, and pdf-lib
 * asks its fontkit for the face again for every document, so the fontkit given to pdf-lib answers with the
 * face parsed the first time (pdf-lib's public registerFontkit takes any object with create()).
 */
function load(fontPath: string): Promise<Loaded> {
  loaded ??= (async () => {
    const [lib, fk, fontBytes] = await Promise.all([import('@cantoo/pdf-lib'), import('fontkit'), readFile(fontPath)]);
    const face = fk.create(fontBytes, FACE);
    return { lib, fontBytes, fontkit: { create: () => face } };
  })();
  loaded.catch(() => { loaded = undefined; });
  return loaded;
}

/** The QR code's side on the first page, and on the pages that continue it. */
const QR_FIRST = 130;
const QR_NEXT = 72;
/** Line breaks and control characters in a customer's text are drawn as spaces: pdf-lib starts a line at a break, which the ticket's count of lines would not know of. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

/**
 * An A4 job ticket: the SO number big and as a QR code (a scanner at the press finds the order),
 * then what the press needs to make it. Chinese is drawn with a subset of Noto Sans CJK SC embedded
 * (only the glyphs used), so the ticket prints the same on any machine.
 *
 * Every line is printed: text wraps within the page's width, and what does not fit goes on further A4
 * pages (a work sent to 20 shops printed 12 of them, the 13th cut at the page's foot: walk, 2026-12-01).
 * A continued page is headed 生产单（续） with the SO number and its own QR code; every page's foot says
 * whose it is and 第n页/共m页, so a page dropped from the pile is put back and a missing one is noticed.
 */
export async function renderJobTicket(info: TicketInfo, fontPath: string): Promise<Uint8Array> {
  const { lib, fontBytes, fontkit } = await load(fontPath);
  const { PDFDocument, rgb } = lib;
  const doc = await PDFDocument.create();
  doc.setTitle(`生产单 ${info.salesOrderNumber}`);
  doc.setCreator('print portal');
  doc.registerFontkit(fontkit as never);
  const font = await doc.embedFont(fontBytes, { subset: true });
  const [width, height] = A4;
  const black = rgb(0, 0, 0);
  const grey = rgb(0.4, 0.4, 0.4);
  type Page = ReturnType<typeof doc.addPage>;

  /**
   * Breaks text into lines that fit `maxWidth`, by characters (Chinese has no spaces to break at). Each
   * character is measured once: measuring the line so far at every character took seconds for 50 long
   * addresses (fontkit lays out the whole string each time). A line is drawn with its glyphs' advance widths,
   * no kerning, so its characters' widths add up to its width (a ligature only makes it narrower).
   */
  const widths = new Map<string, number>();
  const widthOf = (ch: string) => {
    let w = widths.get(ch);
    if (w === undefined) widths.set(ch, (w = font.widthOfTextAtSize(ch, 1)));
    return w;
  };
  const wrap = (text: string, size: number, maxWidth: number) => {
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const ch of text.replace(BREAKS, ' ')) {
      const w = widthOf(ch) * size;
      if (line && lineWidth + w > maxWidth) {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      line += ch;
      lineWidth += w;
    }
    lines.push(line);
    return lines;
  };

  /** The QR code, drawn as squares (sharp at any printer resolution), top right, with its quiet zone; answers its bottom. */
  const qr = QRCode.create(info.salesOrderNumber, { errorCorrectionLevel: 'M' });
  const drawQr = (page: Page, side: number) => {
    const n = qr.modules.size;
    const cell = side / (n + 8);
    const qrX = width - MARGIN - side;
    const qrY = height - MARGIN - side;
    page.drawRectangle({ x: qrX, y: qrY, width: side, height: side, color: rgb(1, 1, 1) });
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        if (qr.modules.get(r, c)) page.drawRectangle({ x: qrX + (c + 4) * cell, y: qrY + side - (r + 5) * cell, width: cell, height: cell, color: black });
      }
    }
    return qrY;
  };

  const pages: Page[] = [];
  let page = doc.addPage(A4);
  pages.push(page);
  const qrY = drawQr(page, QR_FIRST);
  let y = height - MARGIN - 24;
  page.drawText('生产单', { x: MARGIN, y, size: 24, font, color: black });
  y -= 34;
  page.drawText(info.salesOrderNumber, { x: MARGIN, y, size: 18, font, color: black });
  y -= 22;
  // Left of the QR code, wrapped: a hub's name may be long.
  wrap(`下单时间 ${info.createdAt}　客户 ${info.hubName}`, 10, width - 2 * MARGIN - QR_FIRST - 12).forEach((line, i) => {
    if (i > 0) y -= 14;
    page.drawText(line, { x: MARGIN, y, size: 10, font, color: grey });
  });
  y = Math.min(y, qrY) - 24;

  /** Where the rows of a continued page start, under its head and QR code. */
  const continuedTop = height - MARGIN - QR_NEXT - 24;
  const nextPage = () => {
    page = doc.addPage(A4);
    pages.push(page);
    drawQr(page, QR_NEXT);
    page.drawText('生产单（续）', { x: MARGIN, y: height - MARGIN - 16, size: 16, font, color: black });
    page.drawText(info.salesOrderNumber, { x: MARGIN, y: height - MARGIN - 40, size: 14, font, color: black });
    y = continuedTop;
  };

  const labelWidth = 70;
  const textWidth = width - 2 * MARGIN - labelWidth;
  const row = (label: string, value: string, size = 12) => {
    const labels = wrap(label, 11, labelWidth - 6);
    const values = wrap(value || '—', size, textWidth);
    const count = Math.max(labels.length, values.length);
    const pitch = size + 6;
    // A short row is not split (an address read across two pages); a long one (a warning naming long file
    // names) goes on where it is, line by line, rather than leave most of a page empty.
    const short = count * pitch <= (continuedTop - MARGIN) / 2;
    if (short && y - (count - 1) * pitch < MARGIN) nextPage();
    const at: Array<{ page: Page; y: number }> = [];
    for (let i = 0; i < count; i++) {
      if (y < MARGIN) nextPage();
      at.push({ page, y });
      y -= pitch;
    }
    y -= 4;
    // The label's lines before the value's: a reader's text (a search, a copy) has each whole.
    labels.forEach((line, i) => at[i]!.page.drawText(line, { x: MARGIN, y: at[i]!.y, size: 11, font, color: grey }));
    values.forEach((line, i) => at[i]!.page.drawText(line, { x: MARGIN + labelWidth, y: at[i]!.y, size, font, color: black }));
  };
  row('作品', info.articleName, 14);
  row('产品', info.productName);
  row('SKU', info.sku);
  row('份数', String(info.copies), 14);
  row('总页数', String(info.pageCount));
  for (const c of info.components) row(c.name, `尺寸 ${c.size}　页数 ${c.pages}${c.pageList ? `（${c.pageList}）` : ''}　纸张 ${c.paper || '—'}`);
  row('调色', info.toning);
  // The press sees that the customer knew (it was only on the order's page in the console).
  if (info.warnings.length > 0) row('客户已确认', info.warnings.join('；'));
  info.addresses.forEach((a, i) => row(info.addresses.length > 1 ? `收货地址${i + 1}` : '收货地址', a));

  // In the bottom margin, once the count of pages is known.
  pages.forEach((p, i) => {
    const foot = `生产单 ${info.salesOrderNumber}　第${i + 1}页/共${pages.length}页`;
    p.drawText(foot, { x: (width - font.widthOfTextAtSize(foot, 9)) / 2, y: MARGIN / 2, size: 9, font, color: grey });
  });
  return doc.save();
}
