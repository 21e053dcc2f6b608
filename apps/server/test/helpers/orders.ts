import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { TestApp } from './app.ts';
import { findSku } from './catalogue.ts';
import { uploadFile } from './upload.ts';

/** A JPEG photo of w × h mm at 300 dpi, its pixels made different by `seed` (each file has bytes of its own). */
export async function photoMm(w: number, h: number, seed = 0): Promise<Buffer> {
  const dpi = 300;
  const width = Math.round((w / 25.4) * dpi);
  const height = Math.round((h / 25.4) * dpi);
  return sharp({ create: { width, height, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 120 } } })
    .composite([{ input: { create: { width: 40, height: 40, channels: 3, background: '#ffffff' } }, left: (seed * 13) % (width - 40), top: 10 }])
    .jpeg().withMetadata({ density: dpi }).toBuffer();
}

export type PlacedOrder = { salesOrderNumber: string; articleName: string };

/** A delivery address as an order takes it; `quantity` says how many copies go there when a work goes to several. */
export type Recipient = { contact: string; phone: string; province: string; city: string; district: string; address: string; quantity?: number };

/**
 * Uploads each work (one file, or a folder of files: paths relative to the work's folder), checks it as a 5寸
 * photo (PH-5 / PH5-GL-NB) and places them as one batch of `token`'s hub: to the hub's default address, or with
 * `recipients` each work to those (a hub that gives an address per work). Answers the orders in work order.
 */
export async function placePhotoOrders(t: Pick<TestApp, 'url' | 'call'>, token: string, works: Array<{ name: string; files: Array<{ path: string; bytes: Buffer }> }>, quantity = 2, recipients?: Recipient[]): Promise<PlacedOrder[]> {
  const sku = await findSku(t, token, 'PH-5', 'PH5-GL-NB');
  const lines = [];
  for (const w of works) {
    const folderId = randomUUID();
    const single = w.files.length === 1 && !w.files[0]!.path.includes('/');
    for (const f of w.files) {
      const rel = single ? f.path : `${w.name}/${f.path}`;
      const r = await uploadFile(t, token, f.bytes, rel, { folderId });
      if (!r.done) throw new Error(`upload of ${rel} did not complete`);
    }
    const top = single ? w.files[0]!.path : w.name;
    const res = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${folderId}/${top}`)}`, { token });
    const parsed = (await res.json()) as { state: number; message: { works: Array<{ uuid: string; articleName: string; filePath: string }> } };
    if (parsed.state !== 200) throw new Error(`parse of ${top}: ${JSON.stringify(parsed)}`);
    const work = parsed.message.works[0]!;
    const check = await t.call('POST', '/api/sales_order/checkFile', { token, body: { productId: sku.productId, propertyConfigId: sku.propertyConfigId, filePath: work.filePath } });
    const checked = (await check.json()) as { state: number };
    if (checked.state !== 200) throw new Error(`check of ${top}: ${JSON.stringify(checked)}`);
    lines.push({ uuid: work.uuid, articleName: work.articleName, filePath: work.filePath, quantity, productId: sku.productId, propertyConfigId: sku.propertyConfigId, toning: 'None', orderLocations: recipients });
  }
  const res = await t.call('POST', '/api/sales_order/batch', { token, body: { idempotencyKey: randomUUID(), deliveryMethod: recipients ? 'Partial' : 'Unified', works: lines } });
  const body = (await res.json()) as { state: number; message: { orders: PlacedOrder[] } };
  if (res.status !== 200) throw new Error(`order: ${res.status} ${JSON.stringify(body)}`);
  return body.message.orders;
}
