import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { and, asc, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import yazl from 'yazl';
import { MANIFEST_COLUMNS, PRODUCTION_MSG, type ProductionLinkAnswer, type ProductionSelection } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { customerHubs, salesOrders, storedFiles } from '../db/schema/index.ts';
import { inComponentOrder } from '../domain/components.ts';
import { componentPaper, csvText, NAME_LIMITS, orderFolder, safeName, shopClock, shopDay, uniquePaths, zipTimeOf } from '../domain/production.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { renderJobTicket, type TicketInfo } from '../media/job-ticket.ts';
import type { FileStore } from '../storage/file-store.ts';
import type { CatalogueService } from './catalogue.ts';
import type { FileUrls } from './file-urls.ts';

type Order = typeof salesOrders.$inferSelect;
type ZipFile = { order: Order; entry: string; component: string; filePath: string; size: number; pages: number };

/** Page numbers as the press reads them: 第1–2、19–20页. */
function pageRanges(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (sorted[i + 1] === sorted[i]! + 1) i++;
    parts.push(start === sorted[i] ? `${start}` : `${start}–${sorted[i]}`);
  }
  return `第${parts.join('、')}页`;
}

/** The selection as one signed string: `so:<SO>`, `batch:<id>`, `day:<YYYY-MM-DD>`. */
export function selectionKey(sel: ProductionSelection): string {
  if ('salesOrderNumber' in sel) return `so:${sel.salesOrderNumber}`;
  if ('batchId' in sel) return `batch:${sel.batchId}`;
  return `day:${sel.day}`;
}

function selectionOf(key: string): ProductionSelection | null {
  const [kind, ...rest] = key.split(':');
  const value = rest.join(':');
  if (kind === 'so' && value) return { salesOrderNumber: value };
  if (kind === 'batch' && /^\d+$/.test(value)) return { batchId: Number(value) };
  if (kind === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { day: value };
  return null;
}

const zipName = (sel: ProductionSelection) =>
  'salesOrderNumber' in sel ? `生产文件_${sel.salesOrderNumber}.zip` : 'batchId' in sel ? `生产文件_批次${sel.batchId}.zip` : `生产文件_${sel.day}.zip`;

/** China Standard Time, as the shop reads it on a ticket. */
const shopTime = (d: Date) => shopClock(d).slice(0, 16).replace('T', ' ');

/**
 * The files for the press: one order, a batch (the orders placed together) or the 待处理 orders of a day as
 * one zip, streamed. Keep in mind:
 * - every file is read from the store as a stream when the zip writer reaches it (yazl's lazy entries), and
 *   the zip is written to the response as it is made: no temporary copy, memory independent of the size;
 * - every stored file is looked up (size, pages) before the first byte is sent, so a missing file is a clear
 *   4xx rather than a zip cut in the middle;
 * - the manifest is the last entry: its sha256 column is computed from the bytes as they went into the zip.
 */
export function createProductionService(deps: { db: Db; store: FileStore; catalogue: CatalogueService; urls: FileUrls; ticketFont: string | null }) {
  const { db, store } = deps;

  async function ordersOf(sel: ProductionSelection): Promise<Order[]> {
    if ('salesOrderNumber' in sel) {
      const rows = await db.select().from(salesOrders).where(eq(salesOrders.salesOrderNumber, sel.salesOrderNumber));
      if (!rows.length) throw notFound(PRODUCTION_MSG.orderNotFound);
      // A cancelled order is not for the press: its zip came whole, and its ticket never said 已取消 (the LAN check).
      if (rows[0]!.status === 'cancelled') throw conflict(PRODUCTION_MSG.orderCancelled(sel.salesOrderNumber), 'order-cancelled');
      return rows;
    }
    if ('batchId' in sel) {
      // A batch's orders, less the cancelled ones.
      const rows = await db.select().from(salesOrders).where(and(eq(salesOrders.batchId, sel.batchId), ne(salesOrders.status, 'cancelled'))).orderBy(asc(salesOrders.id));
      if (!rows.length) throw notFound(PRODUCTION_MSG.nothing);
      return rows;
    }
    const range = shopDay(sel.day);
    if (!range) throw badRequest('日期不存在');
    // The day's orders waiting for production (待处理).
    const rows = await db.select().from(salesOrders)
      .where(and(eq(salesOrders.status, 'pending'), gte(salesOrders.createdAt, range.from), lt(salesOrders.createdAt, range.to))).orderBy(asc(salesOrders.id));
    if (!rows.length) throw notFound(PRODUCTION_MSG.nothing);
    return rows;
  }

  /** Every file of the orders with its entry name, size and pages; refuses when one is missing. */
  async function plan(orders: Order[]) {
    const unique = uniquePaths();
    const files: ZipFile[] = [];
    const tickets = new Map<string, string>();
    const productComponents = new Map<string, Awaited<ReturnType<CatalogueService['productDetails']>>['components'] | null>();
    const componentsOf = async (o: Order) => {
      const key = `${o.hubId}:${o.productId}`;
      if (!productComponents.has(key)) {
        productComponents.set(key, await deps.catalogue.productDetails(o.hubId, o.productId).then((p) => p.components, () => null));
      }
      return productComponents.get(key)!;
    };
    for (const o of orders) {
      const folder = orderFolder(o.salesOrderNumber, o.articleName);
      tickets.set(o.salesOrderNumber, unique(`${folder}/生产单_${safeName(o.salesOrderNumber, 40)}.pdf`));
      const comps = await componentsOf(o);
      const paths = o.files.map((f) => f.filePath);
      const stored = new Map<string, typeof storedFiles.$inferSelect>();
      for (let i = 0; i < paths.length; i += 500) {
        for (const s of await db.select().from(storedFiles).where(and(eq(storedFiles.hubId, o.hubId), inArray(storedFiles.path, paths.slice(i, i + 500))))) stored.set(s.path, s);
      }
      for (const f of inComponentOrder(o.files, (x) => x.component, comps?.map((c) => c.name) ?? [])) {
        const s = await store.stat(o.hubId, f.filePath);
        if (!s || s.isDirectory) throw new AppError(409, 'file-missing', `订单${o.salesOrderNumber}的文件${f.fileName}已不存在，无法打包`);
        // A file outside any component's folder belongs to the component the check gave it when the order was
        // placed, else to the product's only component, if it has one.
        const checked = o.checkSummary?.rows.find((r) => r.itemPath === f.filePath && r.component !== null)?.component;
        const component = f.component ?? checked ?? (comps?.length === 1 ? comps[0]!.name : '文件');
        const meta = stored.get(f.filePath)?.meta;
        files.push({
          order: o, component, filePath: f.filePath, size: s.size, pages: meta?.pages ?? 1,
          entry: unique(`${folder}/${safeName(component, NAME_LIMITS.component)}/${safeName(f.fileName, NAME_LIMITS.file)}`),
        });
      }
    }
    return { files, tickets, componentsOf };
  }

  async function ticketOf(o: Order, files: ZipFile[], comps: Awaited<ReturnType<CatalogueService['productDetails']>>['components'] | null, hubName: string): Promise<TicketInfo> {
    const mine = files.filter((f) => f.order === o);
    // A PDF's pages went to components by the check (a brochure: 封面 the first and last two, 内页 the
    // rest); its file sits outside the components' folders, so the check's rows say which pages are whose.
    const paged = new Map<string, { file: string; pages: number[] }>();
    for (const r of o.checkSummary?.rows ?? []) {
      if (r.page === null || r.component === null) continue;
      const entry = paged.get(r.component) ?? { file: r.itemPath, pages: [] };
      entry.pages.push(r.page);
      paged.set(r.component, entry);
    }
    const pagedFiles = new Set([...paged.values()].map((p) => p.file));
    const names = inComponentOrder([...new Set([...mine.filter((f) => !pagedFiles.has(f.filePath)).map((f) => f.component), ...paged.keys()])], (n) => n, comps?.map((c) => c.name) ?? []);
    return {
      salesOrderNumber: o.salesOrderNumber, articleName: o.articleName, hubName, productName: o.productName, sku: o.sku, copies: o.quantity,
      pageCount: o.pageCount, createdAt: shopTime(o.createdAt),
      components: names.map((name) => {
        const c = comps?.find((x) => x.name === name);
        const fromFiles = mine.filter((f) => f.component === name && !pagedFiles.has(f.filePath)).reduce((n, f) => n + f.pages, 0);
        const pdfPages = paged.get(name)?.pages ?? [];
        // The size the files were checked against when the order was placed: an import since may have changed the
        // product (its ticket said 152×89 mm for files checked at 127×89: API probe, 2026-11-30).
        const ordered = o.checkSummary?.rows.find((r) => r.component === name && r.standardWidth !== null && r.standardHeight !== null);
        return {
          name, size: ordered ? `${ordered.standardWidth}×${ordered.standardHeight} mm` : c ? `${c.width}×${c.height} mm` : '—',
          pages: fromFiles + pdfPages.length,
          pageList: pdfPages.length ? pageRanges(pdfPages) : undefined,
          paper: componentPaper(name, names, o.sku, c?.objectPapers.map((p) => p.paper) ?? []),
        };
      }),
      toning: o.toning === 'Manual' ? `人工调色${o.customToning ? `：${o.customToning}` : ''}` : '不调色',
      warnings: o.checkSummary?.warnings ?? [],
      addresses: (o.orderLocations ?? []).map((l) => `${l.contact} ${l.phone} ${l.province}${l.city}${l.district}${l.address}${l.quantity ? `（${l.quantity}份）` : ''}`),
    };
  }

  return {
    /** The orders a selection holds and a signed link to their zip (a browser's download sends no token). */
    async link(sel: ProductionSelection): Promise<ProductionLinkAnswer> {
      const orders = await ordersOf(sel);
      const key = selectionKey(sel);
      return {
        url: `/api/downloads/production?sel=${encodeURIComponent(key)}&${deps.urls.signQuery(`prod:${key}`)}`,
        fileName: zipName(sel),
        orders: orders.map((o) => ({ salesOrderNumber: o.salesOrderNumber, articleName: o.articleName, files: o.files.length })),
      };
    },

    /** The selection a signed link names, or 403. */
    verifyLink(q: { sel: string; exp: string; sig: string }): ProductionSelection {
      const sel = selectionOf(q.sel);
      if (!sel || !deps.urls.verify(`prod:${q.sel}`, q.exp, q.sig)) throw forbidden(PRODUCTION_MSG.badLink);
      return sel;
    },

    /**
     * The zip as a stream, after everything it needs was found. `observe` sees each stored file as the zip
     * writer starts reading it (tests use it to show the zip is not buffered).
     */
    async zip(sel: ProductionSelection, observe?: { fileOpened?: (entry: string) => void }): Promise<{ stream: Readable; fileName: string }> {
      if (!deps.ticketFont) throw new AppError(503, 'no-font', PRODUCTION_MSG.noFont);
      const fontPath = deps.ticketFont;
      const orders = await ordersOf(sel);
      const { files, tickets, componentsOf } = await plan(orders);
      const hubIds = [...new Set(orders.map((o) => o.hubId))];
      const hubNames = new Map((await db.select({ id: customerHubs.id, name: customerHubs.name }).from(customerHubs).where(inArray(customerHubs.id, hubIds))).map((h) => [h.id, h.name]));
      const zip = new yazl.ZipFile();
      const manifest: Array<Array<string | number>> = [];

      for (const o of orders) {
        const mtime = zipTimeOf(o.createdAt);
        zip.addReadStreamLazy(tickets.get(o.salesOrderNumber)!, { mtime, compress: true }, (cb) => {
          componentsOf(o).then((comps) => ticketOf(o, files, comps, hubNames.get(o.hubId) ?? ''))
            .then((info) => renderJobTicket(info, fontPath))
            .then((bytes) => cb(null, Readable.from([Buffer.from(bytes)])), (err: Error) => cb(err, undefined as never));
        });
        for (const f of files.filter((x) => x.order === o)) {
          // Print files are JPEG, PNG and PDF, compressed already: stored as they are, byte for byte.
          zip.addReadStreamLazy(f.entry, { mtime, compress: false, size: f.size }, (cb) => {
            observe?.fileOpened?.(f.entry);
            const hash = createHash('sha256');
            const through = new PassThrough();
            through.on('data', (d: Buffer) => hash.update(d));
            through.on('end', () => manifest.push([o.salesOrderNumber, o.articleName, f.component, f.entry, f.pages, f.size, hash.digest('hex')]));
            const source = store.read(o.hubId, f.filePath);
            source.on('error', (err) => through.destroy(err));
            cb(null, source.pipe(through));
          });
        }
      }
      // Reached when every file before it was written whole: the manifest lists them all, hashes included.
      zip.addReadStreamLazy('manifest.csv', { mtime: zipTimeOf(new Date()), compress: true }, (cb) => {
        cb(null, Readable.from([Buffer.from(csvText(MANIFEST_COLUMNS, manifest), 'utf8')]));
      });
      // A file that fails while being read (a disk error) ends the download, which the browser shows as failed.
      zip.on('error', (err: Error) => (zip.outputStream as PassThrough).destroy(err));
      zip.end();
      return { stream: zip.outputStream as Readable, fileName: zipName(sel) };
    },
  };
}
export type ProductionService = ReturnType<typeof createProductionService>;
