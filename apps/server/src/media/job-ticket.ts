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

/**
 * A one-page A4 job ticket: the SO number big and as a QR code (a scanner at the press finds the order),
 * then what the press needs to make it. Chinese is drawn with a subset of Noto Sans CJK SC embedded
 * (only the glyphs used), so the ticket prints the same on any machine.
 */
export async function renderJobTicket(info: TicketInfo, fontPath: string): Promise<Uint8Array> {
  const { lib, fontBytes, fontkit } = await load(fontPath);
  const { PDFDocument, rgb } = lib;
  const doc = await PDFDocument.create();
  doc.setTitle(`生产单 ${info.salesOrderNumber}`);
  doc.setCreator('print portal');
  doc.registerFontkit(fontkit as never);
  const font = await doc.embedFont(fontBytes, { subset: true });
  const page = doc.addPage(A4);
  const [width, height] = A4;
  const black = rgb(0, 0, 0);
  const grey = rgb(0.4, 0.4, 0.4);

  // The QR code, drawn as squares (sharp at any printer resolution), top right, with its quiet zone.
  const qr = QRCode.create(info.salesOrderNumber, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const qrSide = 130;
  const cell = qrSide / (n + 8);
  const qrX = width - MARGIN - qrSide;
  const qrY = height - MARGIN - qrSide;
  page.drawRectangle({ x: qrX, y: qrY, width: qrSide, height: qrSide, color: rgb(1, 1, 1) });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c)) page.drawRectangle({ x: qrX + (c + 4) * cell, y: qrY + qrSide - (r + 5) * cell, width: cell, height: cell, color: black });
    }
  }

  let y = height - MARGIN - 24;
  page.drawText('生产单', { x: MARGIN, y, size: 24, font, color: black });
  y -= 34;
  page.drawText(info.salesOrderNumber, { x: MARGIN, y, size: 18, font, color: black });
  y -= 22;
  page.drawText(`下单时间 ${info.createdAt}　客户 ${info.hubName}`, { x: MARGIN, y, size: 10, font, color: grey });
  y = Math.min(y, qrY) - 24;

  const labelWidth = 70;
  const textWidth = width - 2 * MARGIN - labelWidth;
  /** Breaks text into lines that fit, by characters (Chinese has no spaces to break at). */
  const wrap = (text: string, size: number) => {
    const lines: string[] = [];
    let line = '';
    for (const ch of text) {
      if (line && font.widthOfTextAtSize(line + ch, size) > textWidth) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
    lines.push(line);
    return lines;
  };
  const row = (label: string, value: string, size = 12) => {
    page.drawText(label, { x: MARGIN, y, size: 11, font, color: grey });
    for (const line of wrap(value || '—', size)) {
      page.drawText(line, { x: MARGIN + labelWidth, y, size, font, color: black });
      y -= size + 6;
    }
    y -= 4;
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
  return doc.save();
}
