import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsidePage, pdfPages } from '../../test/helpers/pdf-text.ts';
import { loadConfig } from '../config.ts';
import { renderJobTicket, type TicketInfo } from './job-ticket.ts';

const font = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'portal-ticket-')) }).ticketFont;
const so = 'SO202612010001';
const fileName = (n: number) => `${`门店照片${n}`.padEnd(246, '（终版）')}.jpg`;

/** The most an order may put on a ticket: every name at its longest, 50 addresses, a warning naming five long file names. */
const largest: TicketInfo = {
  salesOrderNumber: so, articleName: '二〇二六年连锁门店开业海报'.padEnd(255, '（终版）'), hubName: '分批收货客户'.padEnd(100, '连锁门店'),
  productName: '5寸照片冲印', sku: 'PH5-GL-NB', copies: 50, pageCount: 24, toning: '不调色', createdAt: '2026-12-01 10:00',
  components: Array.from({ length: 12 }, (_, i) => ({ name: i === 3 ? '一个名称很长的组件（背面覆膜）' : `组件${i + 1}`, size: '127×89 mm', pages: 2, pageList: '第1–2页', paper: '光面相纸' })),
  warnings: [`分辨率低于要求：9 个文件（${[1, 2, 3, 4, 5].map(fileName).join('、')} 等）`],
  addresses: Array.from({ length: 50 }, (_, i) => `${`第${i + 1}店收件人`.padEnd(50, '王')} 139${String(i).padStart(8, '0')} 浙江省杭州市西湖区${`文三路${i + 1}号`.padEnd(200, '华星科技大厦东楼')}（1份）`),
};

describe('job ticket', () => {
  it('prints every line of the largest order on further A4 pages, each headed and numbered, none off the paper (it stopped at 收货地址6: walk)', async () => {
    expect(font, 'fonts-noto-cjk').not.toBeNull();
    const pages = await pdfPages(await renderJobTicket(largest, font!));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((p, i) => {
      expect([Math.round(p.width), Math.round(p.height)]).toEqual([595, 842]);
      expect(outsidePage(p), `page ${i + 1}`).toEqual([]);
      const text = p.text.replaceAll(/\s/g, '');
      expect(text).toContain(`生产单${so}第${i + 1}页/共${pages.length}页`);
      expect(text.includes(`生产单（续）${so}`), `page ${i + 1}`).toBe(i > 0);
    });
    // The pages' heads and feet out, the rows read on from page to page.
    const body = pages.map((p, i) => p.text.replaceAll(/\s/g, '').replace(`生产单${so}第${i + 1}页/共${pages.length}页`, '').replace(`生产单（续）${so}`, '')).join('');
    const lines = [
      `作品${largest.articleName}`, `客户${largest.hubName}`,
      ...largest.components.map((c) => `${c.name}尺寸${c.size}页数2（第1–2页）纸张光面相纸`),
      `客户已确认${largest.warnings[0]}`,
      ...largest.addresses.map((a, i) => `收货地址${i + 1}${a}`),
    ].map((l) => l.replaceAll(/\s/g, ''));
    expect(lines.filter((l) => !body.includes(l))).toEqual([]);
    // An address is not cut across two pages.
    const cut = largest.addresses.flatMap((a, i) => (pages.some((p) => p.text.replaceAll(/\s/g, '').includes(`收货地址${i + 1}${a.replaceAll(/\s/g, '')}`)) ? [] : [i + 1]));
    expect(cut).toEqual([]);
  });

  it('keeps a small order on one page, numbered 第1页/共1页', async () => {
    expect(font, 'fonts-noto-cjk').not.toBeNull();
    const pages = await pdfPages(await renderJobTicket({ ...largest, articleName: '海报', hubName: '演示客户', components: largest.components.slice(0, 1), warnings: [], addresses: largest.addresses.slice(0, 1) }, font!));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text.replaceAll(/\s/g, '')).toContain(`生产单${so}第1页/共1页`);
    expect(outsidePage(pages[0]!)).toEqual([]);
  });
});
