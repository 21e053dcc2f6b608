/**
 * Saving the open batch draft of a big batch (issue #21 item 3): `PUT /api/batch-drafts/{id}` of a
 * document of 2,000 works (each a checked photo work with its SKU, components and an address, as
 * the page keeps them) plus an unfinished 200-file upload, on the real server (child process, PGlite,
 * as `npm start` runs it), one save after another with the version each answered; against the same
 * saves of a 20-work document. The figure's own goal: ≤ 150 ms a save (the page saves at most every
 * 1.5 s, and only when the batch's structure changed). The document's size is in the details.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { BatchDraftDocument, SavedDraftAnswer } from '@portal/contract';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';

function documentOf(works: number): BatchDraftDocument {
  const location = { contact: '王小明', phone: '13800138000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路100号', quantity: 2 };
  return {
    format: 1,
    works: Array.from({ length: works }, (_, i) => {
      const name = `客户作品${String(i + 1).padStart(4, '0')}`;
      const filePath = `upload/${randomUUID()}/${name}.jpg`;
      return {
        uuid: randomUUID(), articleName: name, filePath, fileName: `${name}.jpg`,
        files: [{ fileName: `${name}.jpg`, filePath, component: null, width: 1500, height: 1051, dpi: 300, pages: 1 }],
        quantity: 2, pageCount: 1, addPageNum: 0, state: 'match' as const, productId: 1, productName: '5寸照片冲印', propertyConfigId: 1,
        sku: '相纸:光面;边框:无边框', components: [{ componentName: '照片', width: 127, height: 89, count: 1 }], priceBasis: 'print' as const,
        fileArea: 0.0113, toning: 'None' as const, customToning: false, orderLocations: [location],
      };
    }),
    selectedKeys: [],
    uploads: [{
      key: 'b/相册', batchId: 'b', name: '相册', isFolder: true, filePath: 'upload/b/相册', itemIndex: 0, fileNum: 200, parsed: false,
      files: Array.from({ length: 200 }, (_, i) => ({ id: `b-${i}`, relativePath: `相册/IMG_${String(i).padStart(4, '0')}.jpg`, size: 2_500_000, lastModified: 1_700_000_000_000, chunkTotal: 2, done: i < 100, ...(i < 100 ? {} : { chunks: '1' }) })),
    }],
  };
}

async function saveTimes(server: BenchServer, works: number, runs: number) {
  const document = documentOf(works);
  const created = await server.call<SavedDraftAnswer>('POST', '/api/batch-drafts', { document });
  let version = created.version;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Each save changes something, as the page's do.
    document.works[i % works]!.quantity = i + 3;
    const t0 = performance.now();
    const saved = await server.call<SavedDraftAnswer>('PUT', `/api/batch-drafts/${created.id}`, { version, document });
    times.push(performance.now() - t0);
    version = saved.version;
  }
  await server.call('DELETE', `/api/batch-drafts/${created.id}`);
  return { ms: median(times), bytes: created.bytes };
}

const bench: Benchmark = {
  name: 'draft-save',
  description: 'PUT /api/batch-drafts/{id} of a 2,000-work draft on the real server (PGlite), against a 20-work draft',
  goal: { valueMax: 150 },
  async run(ctx) {
    const big = ctx.quick ? 200 : 2000;
    const runs = ctx.quick ? 3 : 15;
    const server = await startBenchServer(ctx);
    ctx.defer(() => server.stop());
    // Warm-up: the statements prepared, the JSON paths taken once.
    await saveTimes(server, 20, 3);
    await saveTimes(server, big, 2);
    const small = await saveTimes(server, 20, runs);
    const large = await saveTimes(server, big, runs);
    return {
      figure: { value: +large.ms.toFixed(1), unit: 'ms' },
      baseline: { value: +small.ms.toFixed(1), unit: 'ms' },
      ratio: large.ms / small.ms,
      extra: { works: big, documentKB: +(large.bytes / 1024).toFixed(0), baselineKB: +(small.bytes / 1024).toFixed(1), runs },
    };
  },
};

export default bench;
