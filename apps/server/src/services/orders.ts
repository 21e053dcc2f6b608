import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { BatchOrderAnswer, LIMITS, MSG, ORDER_STATUS_TEXT, isPhoneNumber, type BatchOrderBody, type OrderLocation, type Pricing, type SalesOrder } from '@portal/contract';
import type { Db } from '../db/client.ts';
import { batchDrafts, customerLocations, orderBatches, salesOrders } from '../db/schema/index.ts';
import type { OrderCheckSummary, StoredPricing } from '../db/schema/orders.ts';
import type { CheckOutcome } from '../domain/check.ts';
import { inComponentOrder } from '../domain/components.ts';
import { salesOrderNumber } from '../domain/order-number.ts';
import { fenOfYuan, fenText, legacyBasisText, priceWork, toFen, type Pricing as DomainPricing } from '../domain/pricing.ts';
import { AppError, badRequest, PRODUCT_GONE } from '../errors.ts';
import type { Caller } from '../plugins/auth.ts';
import type { AccountService } from './accounts.ts';
import type { CatalogueService } from './catalogue.ts';
import type { CheckService } from './check.ts';
import { firstUnknownRegion } from './locations.ts';
import type { OrderStatusService } from './order-status.ts';
import type { OrderedPaths } from './ordered-paths.ts';
import type { PreviewService } from './previews.ts';

type QuoteWork = { uuid: string; articleName: string; quantity: number; productId: number; propertyConfigId: number };

const MAX_AMOUNT_FEN = BigInt(LIMITS.maxAmountFen);

const refuse = (message: string, code = 'order-refused') => new AppError(400, code, message);

/** The pricing as the API gives it: numbers (a JSON number of two decimals is the decimal itself). */
const pricingOut = (p: DomainPricing | StoredPricing): Pricing => ({
  basis: p.basis, unitName: p.unitName, units: Number(p.units), unitPrice: Number(p.unitPrice), copies: p.copies,
  extraPages: p.extraPages, extraPagePrice: p.extraPagePrice === null ? null : Number(p.extraPagePrice), amount: Number(p.amount), text: p.text,
});

/** What the operator is shown of the check the order passed: each file's verdict, and what it warned of. */
/** The work's components in the catalogue's order (the check lists them so). */
const componentNames = (o: CheckOutcome) => o.components.map((c) => c.componentName);

export function checkSummaryOf(o: CheckOutcome): OrderCheckSummary {
  const low = o.rows.filter((r) => r.resolutionWarning);
  return {
    resolutionWarning: o.resolutionWarning, pageCount: o.pageCount, addPageNum: o.addPageNum, fileArea: o.fileArea,
    warnings: low.length ? [`分辨率低于要求：${low.length} 个文件（${low.slice(0, 5).map((r) => r.page ? `${r.filename} 第${r.page}页` : r.filename).join('、')}${low.length > 5 ? ' 等' : ''}）`] : [],
    rows: inComponentOrder(o.rows, (r) => r.component?.componentName ?? null, componentNames(o)).map((r) => ({
      fileName: r.filename, itemPath: r.itemPath, page: r.page, component: r.component?.componentName ?? null, width: r.width, height: r.height,
      standardWidth: r.component?.width ?? null, standardHeight: r.component?.height ?? null, dpi: r.resolutionDetect,
      resolutionThreshold: r.resolutionThreshold, resolutionWarning: r.resolutionWarning, pass: r.pass, reason: r.reason,
    })),
  };
}

/** The batch's one address, named so in the refusals of its fields. */
const BATCH_ADDRESS = '收货地址';
/** {name}的收货地址不正确 (spec §5) for a work's address; the batch's own is 收货地址不正确, not 收货地址的收货地址不正确 (API probe). */
const badAddressOf = (name: string) => (name === BATCH_ADDRESS ? `${BATCH_ADDRESS}不正确` : MSG.badAddress(name));

/** The address checks of ../shared/spec/product-spec.md §5, in its order, with its messages. */
function checkLocation(name: string, l: OrderLocation | undefined) {
  if (!l?.contact?.trim()) throw refuse(MSG.emptyRecipient(name), 'bad-address');
  if (!l.phone?.trim()) throw refuse(MSG.emptyPhone(name), 'bad-address');
  if (!isPhoneNumber(l.phone)) throw refuse(MSG.badPhone(name), 'bad-address');
  if (!l.province?.trim() || !l.city?.trim() || !l.district?.trim() || !l.address?.trim()) throw refuse(badAddressOf(name), 'bad-address');
}

/**
 * Where a line's copies go, each address with its number of them: the one address of a Unified batch, or
 * the line's own (one without a number takes them all). The batch's address holds the batch's copies.
 */
function locationsOf(w: BatchOrderBody['works'][number], unified: OrderLocation | undefined): OrderLocation[] {
  if (unified) return [{ ...unified, quantity: w.quantity }];
  const list = w.orderLocations!;
  return list.length === 1 ? [{ ...list[0]!, quantity: w.quantity }] : list;
}

/**
 * Placing the batch order: every work is re-checked and re-priced here (the browser is never trusted),
 * then one sales order per work is written in one transaction. The idempotency key makes a repeated
 * submit answer the first result and create nothing.
 */
export function createOrderService(deps: { db: Db; check: CheckService; catalogue: CatalogueService; accounts: AccountService; status: OrderStatusService; ordered: OrderedPaths; previews: PreviewService }) {
  const { db } = deps;

  /**
   * The catalogue a batch's works are priced from, read once per product and SKU of the batch: 300 works of
   * one SKU read its details (seven statements) and price table 300 times before.
   */
  function catalogueOf(caller: Caller) {
    const details = new Map<number, ReturnType<CatalogueService['productDetails']>>();
    const tables = new Map<string, ReturnType<CatalogueService['priceTable']>>();
    const once = <K, V>(m: Map<K, Promise<V>>, k: K, read: () => Promise<V>) => {
      let p = m.get(k);
      if (!p) m.set(k, (p = read()));
      return p;
    };
    return {
      details: (productId: number) => once(details, productId, () => deps.catalogue.productDetails(caller.hubId, productId)),
      table: (productId: number, propertyConfigId: number) => once(tables, `${productId}:${propertyConfigId}`,
        () => deps.catalogue.priceTable(caller.hubId, caller.customerId, { productId, propertyConfigId })),
    };
  }

  /** Prices and verifies one work; `problem` names why it cannot be ordered (null when it can). */
  async function quoteOne(caller: Caller, w: QuoteWork, catalogue: ReturnType<typeof catalogueOf>) {
    const name = w.articleName.trim();
    let checked;
    try {
      checked = await deps.check.check(caller.hubId, { workUuid: w.uuid, filePath: '', productId: w.productId, propertyConfigId: w.propertyConfigId }, { dryRun: true });
    } catch (err) {
      // A product or SKU that left the catalogue is this line's problem: the batch's other lines are still
      // quoted (the whole quote was a 404, and /payment1 showed 报价失败 for every line: API probe).
      if (err instanceof AppError && err.code === PRODUCT_GONE) return goneLine(w, name, err.message);
      // Name the work the customer would look for when the work itself is not found.
      if (err instanceof AppError && err.status === 404) throw new AppError(404, 'not-found', `${name || w.uuid}：${err.message}`);
      throw err;
    }
    const { outcome, work } = checked;
    const details = await catalogue.details(w.productId);
    const config = details.propertyConfigs.find((c) => c.id === w.propertyConfigId)!;
    const table = await catalogue.table(w.productId, w.propertyConfigId);
    // Priced on what the check counted: the pages, the pages above the base, the files' area.
    const countable = w.quantity >= 1 && w.quantity <= LIMITS.maxOrderQuantity;
    const pricing = countable
      ? priceWork(table.product, table.lines, { copies: w.quantity, pageCount: outcome.pageCount, addPageNum: outcome.addPageNum, fileArea: outcome.fileArea })
      : null;
    // Checked means checked against this product and SKU (../shared/spec/decisions.md §7 refuses the unchecked):
    // the order's own re-check decides the verdict, the stored one says the customer chose and checked it.
    const unchecked = work.checkedAt === null || work.productId !== w.productId || work.propertyConfigId !== w.propertyConfigId;
    let problem: string | null = null;
    if (!name) problem = MSG.emptyWorkName;
    else if (!(w.quantity >= 1)) problem = `${name}：${MSG.quantityBelowOne}`;
    else if (w.quantity > LIMITS.maxOrderQuantity) problem = `${name}：${MSG.quantityTooLarge}`;
    else if (unchecked) problem = `${MSG.workCheckFailed(name)}：${MSG.workNotChecked}`;
    else if (!outcome.pass) problem = `${MSG.workCheckFailed(name)}：${outcome.messages[0] ?? ''}`;
    else if (!config.saleable) problem = `${name}：${MSG.notSaleable}`;
    else if (pricing === null) problem = MSG.noPrice(name);
    else if (toFen(pricing.amount) > MAX_AMOUNT_FEN) problem = MSG.amountTooLarge(name);
    return {
      line: {
        uuid: w.uuid, articleName: name, productName: details.name, sku: config.sku, quantity: w.quantity, pageCount: outcome.pageCount,
        addPageNum: outcome.addPageNum, unitPrice: pricing ? Number(pricing.unitPrice) : null, amount: pricing ? Number(pricing.amount) : null,
        saleable: config.saleable, problem, priceBasis: details.priceBasis, pricing: pricing ? pricingOut(pricing) : null,
      },
      pricing,
      work,
      outcome,
      config,
    };
  }

  /** The line of a work whose product or SKU is gone: nothing to price, nothing to order. */
  function goneLine(w: QuoteWork, name: string, reason: string) {
    return {
      line: {
        uuid: w.uuid, articleName: name, productName: '', sku: '', quantity: w.quantity, pageCount: 0, addPageNum: 0, unitPrice: null, amount: null,
        saleable: false, problem: MSG.productGone(name || w.uuid, reason), priceBasis: null, pricing: null,
      },
      pricing: null,
      work: null,
      outcome: null,
      config: null,
    };
  }

  /** The sum of the priced lines, exact, in fen. */
  const totalFenOf = (list: ReadonlyArray<{ pricing: DomainPricing | null }>) =>
    list.reduce((s, q) => s + (q.pricing ? toFen(q.pricing.amount) : 0n), 0n);

  async function quoteAll(caller: Caller, list: QuoteWork[]) {
    const seen = new Set<string>();
    const out = [];
    const catalogue = catalogueOf(caller);
    for (const w of list) {
      if (seen.has(w.uuid)) throw refuse(`${w.articleName}：作品重复提交`);
      seen.add(w.uuid);
      out.push(await quoteOne(caller, w, catalogue));
    }
    return out;
  }

  return {
    async quote(caller: Caller, list: QuoteWork[]) {
      const quoted = await quoteAll(caller, list);
      const totalFen = totalFenOf(quoted);
      // The bound the order applies to the batch, said before 提交订单 rather than after it (API probe).
      const problem = totalFen > MAX_AMOUNT_FEN && !quoted.some((q) => q.line.problem) ? MSG.totalTooLarge : null;
      return { state: 200 as const, message: { lines: quoted.map((q) => q.line), totalAmount: Number(fenText(totalFen)), problem } };
    },

    async placeBatch(caller: Caller, body: BatchOrderBody) {
      // A key placed before answers what it placed, for the same batch only: another batch under it is refused,
      // never answered with the first one's orders as if it had been placed.
      // What the customer confirmed is not the batch: a batch confirmed again at new prices is the same batch.
      const batchOnly = { ...body, idempotencyKey: undefined, expectedTotalAmount: undefined, works: body.works.map((w) => ({ ...w, expectedAmount: undefined })) };
      const requestHash = createHash('sha256').update(JSON.stringify(batchOnly)).digest('hex');
      const placedBefore = (row: { answer: unknown; requestHash: string | null }) => {
        if (row.requestHash !== null && row.requestHash !== requestHash) throw new AppError(409, 'idempotency-conflict', MSG.batchKeyReused);
        return row.answer as z.infer<typeof BatchOrderAnswer>;
      };
      // Re-checked and written with no change of the hub's files between (services/ordered-paths.ts): a crop, a
      // delete or an upload of a file of this batch waits for the order and then finds it ordered, or goes first
      // and the re-check below sees it.
      return deps.ordered.serialize(caller.hubId, async () => {
        // Asked in the hub's turn: a double-clicked 提交订单 waits for the first, then answers what it placed at once.
        const previous = await db.select({ answer: orderBatches.answer, requestHash: orderBatches.requestHash }).from(orderBatches)
          .where(and(eq(orderBatches.hubId, caller.hubId), eq(orderBatches.idempotencyKey, body.idempotencyKey)));
        if (previous[0]) return placedBefore(previous[0]);
        const hub = await deps.accounts.hubLite(caller.hubId);
        const expected = hub.batchAddressParsing ? 'Partial' : 'Unified';
        if (body.deliveryMethod !== expected) throw refuse(hub.batchAddressParsing ? MSG.deliveryPerWorkNeeded : MSG.deliveryUnifiedNeeded);

        // The checks of ../shared/spec/product-spec.md §5 in its order, for the first work that fails each.
        for (const w of body.works) if (!w.articleName.trim()) throw refuse(MSG.emptyWorkName);
        for (const w of body.works) if (!(w.quantity >= 1)) throw refuse(`${w.articleName}：${MSG.quantityBelowOne}`);
        for (const w of body.works) if (w.quantity > LIMITS.maxOrderQuantity) throw refuse(`${w.articleName}：${MSG.quantityTooLarge}`);
        let unified: OrderLocation | undefined;
        if (expected === 'Partial') {
          // A batch address would be dropped: each work goes to its own (API probe).
          if (body.location) throw refuse(MSG.unifiedAddressPartial, 'bad-address');
          for (const w of body.works) {
            if (!w.orderLocations?.length) throw refuse(MSG.badAddress(w.articleName), 'bad-address');
            for (const l of w.orderLocations) checkLocation(w.articleName, l);
            // Several addresses: each says how many it gets (one without a number was stored, and ticketed, without 份数).
            if (w.orderLocations.length > 1 && w.orderLocations.some((l) => l.quantity === undefined)) throw refuse(MSG.locationQuantityMissing(w.articleName), 'bad-address');
            // The copies sent to each address add up to the line's: the press prints what is paid for.
            // One address without a number takes them all.
            const single = w.orderLocations.length === 1 && w.orderLocations[0]!.quantity === undefined;
            const sum = w.orderLocations.reduce((n, l) => n + (l.quantity ?? 0), 0);
            if (!single && sum !== w.quantity) throw refuse(MSG.locationQuantities(w.articleName, sum, w.quantity), 'bad-address');
          }
        } else {
          // Addresses per work would be dropped: the batch goes to one address, so a client that sent them must hear it (API probe).
          if (body.works.some((w) => w.orderLocations?.length)) throw refuse(MSG.perWorkAddressUnified, 'bad-address');
          unified = body.location;
          if (!unified) {
            const [d] = await db.select().from(customerLocations).where(and(eq(customerLocations.hubId, caller.hubId), eq(customerLocations.isDefault, true))).orderBy(desc(customerLocations.id)).limit(1);
            if (!d) throw refuse(MSG.noDefaultAddress, 'no-default-address');
            unified = { contact: d.contact, phone: d.phone, province: d.province, city: d.city, district: d.district, address: d.address, addressId: d.id };
          }
          checkLocation(BATCH_ADDRESS, unified);
        }
        const sent = body.works.flatMap((w) => (w.orderLocations ?? []).map((l) => ({ name: w.articleName, l })));
        if (unified) sent.push({ name: BATCH_ADDRESS, l: unified });
        const unknown = await firstUnknownRegion(db, sent.map((x) => x.l));
        if (unknown >= 0) throw refuse(badAddressOf(sent[unknown]!.name), 'bad-address');
        // An address named by its id is one of this hub's.
        const named = [unified, ...body.works.flatMap((w) => w.orderLocations ?? [])].map((l) => l?.addressId);
        const addressIds = [...new Set(named.filter((id) => id !== undefined))];
        if (addressIds.length) {
          const own = await db.select({ id: customerLocations.id }).from(customerLocations)
            .where(and(eq(customerLocations.hubId, caller.hubId), inArray(customerLocations.id, addressIds)));
          if (own.length !== addressIds.length) throw new AppError(404, 'not-found', MSG.addressNotFound);
        }

        const quoted = await quoteAll(caller, body.works);
        const failing = quoted.find((q) => q.line.problem);
        if (failing) throw refuse(failing.line.problem!, 'work-refused');
        // Every line without a problem has its check, work and SKU.
        const ready = quoted.map((q) => ({ ...q, work: q.work!, outcome: q.outcome!, config: q.config! }));
        // A SKU whose toning the customer may not switch (customToning false) is ordered with its own.
        body.works.forEach((w, i) => {
          const config = ready[i]!.config;
          if (!config.customToning && w.toning !== config.toning) throw refuse(MSG.toningFixed(w.articleName, config.toning), 'work-refused');
        });

        // Bounded and stored from the exact sum in fen, never from a float of it.
        const totalFen = totalFenOf(quoted);
        if (totalFen > MAX_AMOUNT_FEN) throw refuse(MSG.totalTooLarge);
        // The customer confirmed another total (a price changed since /payment1 showed it): they see the new one first.
        if (body.expectedTotalAmount !== undefined) {
          const confirmedFen = fenOfYuan(body.expectedTotalAmount);
          if (confirmedFen === null) throw badRequest(MSG.confirmedTotalNotFen, 'validation');
          if (BigInt(confirmedFen) !== totalFen) throw new AppError(409, 'price-changed', MSG.priceChanged(fenText(confirmedFen), fenText(totalFen)));
        }
        // The same for each line the client sent its confirmed amount of: a total can stay while its lines move.
        for (const [i, w] of body.works.entries()) {
          if (w.expectedAmount === undefined) continue;
          const confirmedFen = fenOfYuan(w.expectedAmount);
          if (confirmedFen === null) throw badRequest(MSG.confirmedAmountNotFen(w.articleName), 'validation');
          const lineFen = toFen(ready[i]!.pricing!.amount);
          if (BigInt(confirmedFen) !== lineFen) throw new AppError(409, 'price-changed', MSG.linePriceChanged(ready[i]!.line.articleName, fenText(confirmedFen), fenText(lineFen)));
        }
        const totalAmount = Number(fenText(totalFen));
        return db.transaction(async (tx) => {
          const inserted = await tx.insert(orderBatches).values({
            hubId: caller.hubId, idempotencyKey: body.idempotencyKey, requestHash, deliveryMethod: body.deliveryMethod, location: unified ?? null,
            totalAmount: fenText(totalFen), answer: {},
          }).onConflictDoNothing().returning({ id: orderBatches.id, createdAt: orderBatches.createdAt });
          const batch = inserted[0];
          if (!batch) {
            // The same key won a race a moment ago: answer what it placed.
            const [again] = await tx.select({ answer: orderBatches.answer, requestHash: orderBatches.requestHash }).from(orderBatches)
              .where(and(eq(orderBatches.hubId, caller.hubId), eq(orderBatches.idempotencyKey, body.idempotencyKey)));
            return placedBefore(again!);
          }
          const rows = ready.map((q, i) => {
            const w = body.works[i]!;
            return {
              hubId: caller.hubId, customerId: caller.customerId, batchId: batch.id,
              salesOrderNumber: salesOrderNumber(batch.createdAt, batch.id, i + 1),
              workUuid: w.uuid, articleName: q.line.articleName, fileName: q.work.fileName, filePath: q.work.filePath,
              files: inComponentOrder(q.work.files, (f) => f.component, componentNames(q.outcome))
                .map((f) => ({ fileName: f.fileName, filePath: f.filePath, component: f.component })),
              productId: w.productId, productName: q.line.productName, propertyConfigId: w.propertyConfigId, sku: q.line.sku,
              quantity: w.quantity, pageCount: q.line.pageCount, addPageNum: q.line.addPageNum,
              // Every line here has its pricing: a work without one was refused above.
              unitPrice: q.pricing!.unitPrice, amount: q.pricing!.amount, pricing: q.pricing! satisfies StoredPricing,
              toning: w.toning, customToning: typeof w.customToning === 'string' ? w.customToning : null,
              deliveryMethod: body.deliveryMethod, orderLocations: locationsOf(w, unified),
              checkSummary: checkSummaryOf(q.outcome),
              // The resolution warnings accepted (批量确认使用) that this order still has, for the operator.
              resolutionAccepted: q.work.resolutionAccepted?.filter((a) => q.outcome.rows.some((r) => r.resolutionWarning && r.itemPath === a.filePath)) ?? null,
            };
          });
          const placed: Array<{ id: number; hubId: number; customerId: number; salesOrderNumber: string; createdAt: Date }> = [];
          for (let i = 0; i < rows.length; i += 500) {
            placed.push(...await tx.insert(salesOrders).values(rows.slice(i, i + 500)).returning({
              id: salesOrders.id, hubId: salesOrders.hubId, customerId: salesOrders.customerId, salesOrderNumber: salesOrders.salesOrderNumber, createdAt: salesOrders.createdAt,
            }));
          }
          await deps.status.recordPlaced(tx, placed, { role: 'customer', id: caller.userId, login: caller.login });
          const answer = {
            state: 200 as const,
            message: { orders: rows.map((r) => ({ salesOrderNumber: r.salesOrderNumber, articleName: r.articleName, quantity: r.quantity, amount: Number(r.amount), basisText: r.pricing.text })), totalAmount },
          };
          await tx.update(orderBatches).set({ answer }).where(eq(orderBatches.id, batch.id));
          // The batch this login was putting together is ordered: its open draft closes with the order (issue #21 item 3).
          await tx.update(batchDrafts).set({ status: 'closed', closedReason: 'ordered', updatedAt: sql`now()` })
            .where(and(eq(batchDrafts.userId, caller.userId), eq(batchDrafts.status, 'open')));
          return answer;
        });
      });
    },

    async list(caller: Caller, q: { page: number; size: number }): Promise<{ items: SalesOrder[]; total: number }> {
      const where = eq(salesOrders.hubId, caller.hubId);
      const [rows, [total]] = await Promise.all([
        db.select().from(salesOrders).where(where).orderBy(desc(salesOrders.createdAt), desc(salesOrders.id)).limit(q.size).offset(q.page * q.size),
        db.select({ n: count() }).from(salesOrders).where(where),
      ]);
      const history = await deps.status.historyOf(rows.map((r) => r.id));
      return {
        total: total?.n ?? 0,
        items: rows.map((r) => ({
          status: r.status, statusText: ORDER_STATUS_TEXT[r.status], carrier: r.carrier, trackingNumber: r.trackingNumber,
          // The customer sees who moved the order as 您 or 印刷厂, not the staff's login names.
          timeline: (history.get(r.id) ?? []).map((h) => ({
            from: h.fromStatus, to: h.toStatus, toText: ORDER_STATUS_TEXT[h.toStatus], at: h.createdAt.toISOString(),
            by: h.actorRole === 'customer' ? '您' : '印刷厂', note: h.note, carrier: h.carrier, trackingNumber: h.trackingNumber,
          })),
          salesOrderNumber: r.salesOrderNumber, articleName: r.articleName, fileName: r.fileName, filePath: r.filePath,
          files: r.files.map((f) => ({ ...f, thumbnailUrl: deps.previews.thumbnail(r.hubId, f.filePath) })),
          productId: r.productId, productName: r.productName, sku: r.sku, quantity: r.quantity, pageCount: r.pageCount, addPageNum: r.addPageNum,
          unitPrice: Number(r.unitPrice), amount: Number(r.amount), toning: r.toning, deliveryMethod: r.deliveryMethod,
          orderLocations: r.orderLocations ?? null, createdAt: r.createdAt.toISOString(),
          // Orders placed before prices had a basis keep their amount and read as 数量 × 单价.
          pricing: r.pricing ? pricingOut(r.pricing) : null, basisText: r.pricing?.text ?? legacyBasisText(r.quantity, r.unitPrice),
        })),
      };
    },

    /** The customer cancels one of the hub's orders; only while it waits (待处理), else 409 with the reason. */
    async cancel(caller: Caller, salesOrderNumber: string, note?: string | null) {
      return deps.status.changeOrderStatus({ salesOrderNumber, hubId: caller.hubId },
        { to: 'cancelled', actor: { role: 'customer', id: caller.userId, login: caller.login }, note });
    },

    /** Names sent twice, and names already in an order of the hub (with that order's number). */
    async repeatCheck(caller: Caller, names: string[]) {
      const counts = new Map<string, number>();
      for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
      const unique = [...counts.keys()];
      const ordered = new Map<string, string>();
      for (let i = 0; i < unique.length; i += 500) {
        const part = unique.slice(i, i + 500);
        const rows = await db.select({ fileName: salesOrders.fileName, articleName: salesOrders.articleName, no: salesOrders.salesOrderNumber }).from(salesOrders)
          .where(and(eq(salesOrders.hubId, caller.hubId), or(inArray(salesOrders.fileName, part), inArray(salesOrders.articleName, part))))
          .orderBy(desc(salesOrders.id));
        for (const r of rows) {
          if (counts.has(r.fileName) && !ordered.has(r.fileName)) ordered.set(r.fileName, r.no);
          if (counts.has(r.articleName) && !ordered.has(r.articleName)) ordered.set(r.articleName, r.no);
        }
      }
      return names.map((n) => ({ fileName: n, duplicated: (counts.get(n) ?? 0) > 1, salesOrderNumber: ordered.get(n) ?? null }));
    },

  };
}
export type OrderService = ReturnType<typeof createOrderService>;
