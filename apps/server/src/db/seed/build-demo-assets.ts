/**
 * Draws the demo catalogue's files once; the results under apps/server/assets/ are committed, so neither the
 * server nor the tests run this. Re-run after changing demo-catalogue.json:
 *   node --import tsx apps/server/src/db/seed/build-demo-assets.ts
 *
 * - templates/*.pdf: one per component, the page exactly the component's finished size (MediaBox = TrimBox),
 *   with the safe area dashed and the print rules written on it (the text is drawn as an image, because the
 *   standard PDF fonts have no Chinese glyphs).
 * - products/*.png, options/*.png: simple flat illustrations.
 * Text rendering needs a CJK font (Noto Sans CJK SC) installed where this runs.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import type { CatalogueComponent, CatalogueProduct } from './catalogue-schema.ts';
import { formatProblem, parseCatalogueFile } from './import.ts';

const ASSETS = fileURLToPath(new URL('../../../assets/', import.meta.url));
const MM = 72 / 25.4;
const FONT = "'Noto Sans CJK SC','Noto Sans SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',sans-serif";
/** Fixed dates keep the generated PDFs byte-identical between runs. */
const FIXED_DATE = new Date('2024-01-01T00:00:00Z');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A transparent PNG of a few centred lines, for placing on a PDF page. */
async function textImage(lines: Array<{ text: string; size: number; weight?: number; color?: string }>, widthPx: number): Promise<Buffer> {
  const gap = 1.45;
  const height = Math.ceil(lines.reduce((h, l) => h + l.size * gap, 0) + 10);
  let y = 0;
  const tspans = lines.map((l) => {
    y += l.size * gap;
    return `<text x="${widthPx / 2}" y="${y - l.size * 0.35}" font-family="${FONT}" font-size="${l.size}" font-weight="${l.weight ?? 400}" fill="${l.color ?? '#334155'}" text-anchor="middle">${esc(l.text)}</text>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${height}">${tspans}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function toleranceText(c: CatalogueComponent): string {
  return c.errorType === 'percent' ? `±${c.error}%` : `±${c.error} mm`;
}

async function templatePdf(p: CatalogueProduct, c: CatalogueComponent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${p.name} ${c.name} 模板 ${c.width}×${c.height} mm`);
  doc.setSubject('印刷文件模板');
  doc.setCreator('print portal demo catalogue');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const w = c.width * MM;
  const h = c.height * MM;
  const page = doc.addPage([w, h]);
  // The finished size is the whole page; the portal checks files against it, so no bleed is added here.
  page.setTrimBox(0, 0, w, h);

  const safe = Math.min(3, c.width / 10, c.height / 10) * MM;
  page.drawRectangle({ x: 0, y: 0, width: w, height: h, color: rgb(0.97, 0.98, 1) });
  page.drawRectangle({ x: 0, y: 0, width: w, height: h, borderColor: rgb(0.05, 0.55, 0.85), borderWidth: 0.75 });
  page.drawRectangle({
    x: safe, y: safe, width: w - 2 * safe, height: h - 2 * safe,
    borderColor: rgb(0.9, 0.2, 0.25), borderWidth: 0.6, borderDashArray: [3, 2],
  });
  // Centre cross, to help place artwork.
  const cross = Math.min(w, h) * 0.04;
  page.drawLine({ start: { x: w / 2 - cross, y: h / 2 }, end: { x: w / 2 + cross, y: h / 2 }, thickness: 0.4, color: rgb(0.6, 0.65, 0.7) });
  page.drawLine({ start: { x: w / 2, y: h / 2 - cross }, end: { x: w / 2, y: h / 2 + cross }, thickness: 0.4, color: rgb(0.6, 0.65, 0.7) });

  const rules = [
    { text: `${p.name} · ${c.name}`, size: 44, weight: 700, color: '#0f172a' },
    { text: `成品尺寸 ${c.width} × ${c.height} mm（允许误差 ${toleranceText(c)}）`, size: 30 },
    { text: '蓝色实线为裁切线，红色虚线内为安全区（距裁切线 3 mm）', size: 24, color: '#b91c1c' },
    { text: '文字、二维码等重要内容请放在安全区内，背景铺满整页', size: 24 },
    { text: `请按成品尺寸导出，不要另加出血；图片分辨率不低于 ${c.resolutionThreshold || 150} dpi`, size: 24 },
    ...(c.autoOrientationDetection ? [{ text: '横版、竖版均可，系统自动识别方向', size: 24 }] : []),
    { text: '提交文件前请删除本说明文字', size: 22, color: '#64748b' },
  ];
  const png = await doc.embedPng(await textImage(rules, 1400));
  const maxW = w - 4 * safe;
  const maxH = h - 4 * safe;
  const scale = Math.min(maxW / png.width, maxH / png.height);
  page.drawImage(png, { x: (w - png.width * scale) / 2, y: (h - png.height * scale) / 2, width: png.width * scale, height: png.height * scale });
  return doc.save({ useObjectStreams: false });
}

/** Product pictures: a soft backdrop, a motif for the kind of product, the name and the size. */
function productSvg(p: CatalogueProduct): string {
  const c = p.components[0];
  const size = c ? `${c.width} × ${c.height} mm` : '';
  const palette: Record<string, [string, string]> = {
    'photo-print': ['#fde68a', '#f59e0b'], poster: ['#bfdbfe', '#2563eb'], brochure: ['#bbf7d0', '#059669'],
    'business-card': ['#e9d5ff', '#7c3aed'], flyer: ['#fecdd3', '#e11d48'], display: ['#ccfbf1', '#0d9488'],
  };
  const [light, dark] = palette[p.categoryKey] ?? ['#e2e8f0', '#475569'];
  let motif: string;
  switch (p.categoryKey) {
    case 'photo-print':
      motif = `<g transform="rotate(-8 200 170)"><rect x="95" y="90" width="190" height="140" rx="6" fill="#fff" stroke="${dark}" stroke-width="4"/>
        <rect x="108" y="103" width="164" height="114" fill="${light}"/><circle cx="240" cy="130" r="14" fill="#fff7ed"/>
        <path d="M108 217 L160 150 L200 190 L225 165 L272 217 Z" fill="${dark}" opacity="0.85"/></g>`;
      break;
    case 'poster':
      motif = `<rect x="135" y="60" width="130" height="180" rx="4" fill="#fff" stroke="${dark}" stroke-width="4"/>
        <rect x="150" y="78" width="100" height="90" fill="${light}"/><circle cx="200" cy="123" r="28" fill="${dark}" opacity="0.8"/>
        <rect x="150" y="182" width="100" height="10" rx="3" fill="${dark}"/><rect x="162" y="200" width="76" height="8" rx="3" fill="#94a3b8"/>`;
      break;
    case 'brochure':
      motif = `<path d="M200 80 L110 95 L110 235 L200 220 Z" fill="#fff" stroke="${dark}" stroke-width="4"/>
        <path d="M200 80 L290 95 L290 235 L200 220 Z" fill="${light}" stroke="${dark}" stroke-width="4"/>
        <rect x="125" y="115" width="60" height="40" fill="${dark}" opacity="0.7"/><rect x="125" y="168" width="60" height="6" fill="#94a3b8"/>
        <rect x="125" y="182" width="50" height="6" fill="#94a3b8"/><rect x="215" y="115" width="60" height="6" fill="${dark}"/>
        <rect x="215" y="130" width="55" height="6" fill="#94a3b8"/><rect x="215" y="145" width="60" height="6" fill="#94a3b8"/>`;
      break;
    case 'display':
      motif = `<rect x="130" y="55" width="140" height="170" rx="2" fill="#fff" stroke="${dark}" stroke-width="6"/>
        <rect x="145" y="72" width="110" height="80" fill="${light}"/><rect x="145" y="165" width="110" height="10" rx="3" fill="${dark}"/>
        <rect x="145" y="185" width="80" height="8" rx="3" fill="#94a3b8"/><path d="M170 225 L150 262 M230 225 L250 262" stroke="${dark}" stroke-width="6"/>`;
      break;
    case 'business-card':
      motif = `<rect x="120" y="110" width="180" height="108" rx="6" fill="${light}" transform="rotate(8 210 164)"/>
        <rect x="100" y="96" width="180" height="108" rx="6" fill="#fff" stroke="${dark}" stroke-width="4"/>
        <circle cx="135" cy="132" r="14" fill="${dark}"/><rect x="160" y="124" width="90" height="9" rx="3" fill="${dark}"/>
        <rect x="118" y="165" width="110" height="7" rx="3" fill="#94a3b8"/><rect x="118" y="180" width="80" height="7" rx="3" fill="#94a3b8"/>`;
      break;
    default:
      motif = `<rect x="140" y="62" width="120" height="170" rx="3" fill="#fff" stroke="${dark}" stroke-width="4"/>
        <rect x="155" y="80" width="90" height="50" fill="${dark}" opacity="0.75"/><rect x="155" y="142" width="90" height="7" fill="#94a3b8"/>
        <rect x="155" y="156" width="80" height="7" fill="#94a3b8"/><rect x="155" y="170" width="86" height="7" fill="#94a3b8"/>
        <rect x="155" y="196" width="50" height="18" rx="4" fill="${light}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${light}"/></linearGradient></defs>
    <rect width="400" height="400" fill="url(#g)"/>${motif}
    <text x="200" y="305" font-family="${FONT}" font-size="36" font-weight="700" fill="#0f172a" text-anchor="middle">${esc(p.name)}</text>
    <text x="200" y="345" font-family="${FONT}" font-size="22" fill="#475569" text-anchor="middle">${esc(size)}</text>
  </svg>`;
}

/** Option swatches, by file name: a colour and a texture that suggest the material. */
const SWATCHES: Record<string, string> = {
  'paper-glossy.png': `<defs><linearGradient id="s" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e0f2fe"/><stop offset="0.45" stop-color="#ffffff"/><stop offset="1" stop-color="#7dd3fc"/></linearGradient></defs><rect width="120" height="120" fill="url(#s)"/>`,
  'paper-matte.png': `<rect width="120" height="120" fill="#e7e5e4"/><g stroke="#d6d3d1" stroke-width="1">${Array.from({ length: 12 }, (_, i) => `<line x1="0" y1="${i * 10 + 5}" x2="120" y2="${i * 10}"/>`).join('')}</g>`,
  'paper-pearl.png': `<defs><radialGradient id="s"><stop offset="0" stop-color="#ffffff"/><stop offset="0.6" stop-color="#f5f3ff"/><stop offset="1" stop-color="#ddd6fe"/></radialGradient></defs><rect width="120" height="120" fill="url(#s)"/>`,
  'poster-coated.png': `<rect width="120" height="120" fill="#f8fafc"/><rect x="20" y="20" width="80" height="80" fill="#60a5fa"/><rect x="20" y="20" width="80" height="30" fill="#ffffff" opacity="0.35"/>`,
  'poster-pp.png': `<rect width="120" height="120" fill="#fef9c3"/><path d="M120 60 L120 120 L60 120 Z" fill="#facc15"/><path d="M60 120 L120 60 L70 70 Z" fill="#ffffff"/>`,
  'paper-coated-157.png': `<defs><linearGradient id="s" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#e2e8f0"/></linearGradient></defs><rect width="120" height="120" fill="url(#s)"/><rect x="0" y="52" width="120" height="16" fill="#ffffff" opacity="0.9"/>`,
  'paper-matte-128.png': `<rect width="120" height="120" fill="#f1f5f9"/><g fill="#cbd5e1">${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 37) % 120}" cy="${(i * 53) % 120}" r="1.2"/>`).join('')}</g>`,
  'binding-saddle.png': `<rect width="120" height="120" fill="#ecfdf5"/><path d="M60 25 L20 32 L20 95 L60 88 Z" fill="#fff" stroke="#059669" stroke-width="3"/><path d="M60 25 L100 32 L100 95 L60 88 Z" fill="#fff" stroke="#059669" stroke-width="3"/><rect x="57" y="40" width="6" height="12" fill="#475569"/><rect x="57" y="64" width="6" height="12" fill="#475569"/>`,
  'binding-perfect.png': `<rect width="120" height="120" fill="#ecfdf5"/><rect x="30" y="20" width="62" height="80" fill="#fff" stroke="#059669" stroke-width="3"/><rect x="30" y="20" width="12" height="80" fill="#059669"/>`,
};

async function main(): Promise<void> {
  const jsonPath = fileURLToPath(new URL('./demo-catalogue.json', import.meta.url));
  const parsed = parseCatalogueFile(await readFile(jsonPath, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.problems.map(formatProblem).join('\n'));
  const { catalogue } = parsed;
  const written: string[] = [];
  const put = async (rel: string, data: Uint8Array) => {
    const file = path.join(ASSETS, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
    written.push(rel);
  };

  for (const p of catalogue.products) {
    for (const c of p.components) {
      if (c.templateFile) await put(path.join('templates', c.templateFile), await templatePdf(p, c));
    }
    if (p.image && !/^https?:/.test(p.image)) {
      await put(p.image, await sharp(Buffer.from(productSvg(p))).png({ compressionLevel: 9, palette: true }).toBuffer());
    }
  }
  const optionImages = new Set<string>();
  for (const p of catalogue.products) {
    for (const item of p.optionItems) for (const v of item.values) if (v.img) optionImages.add(v.img);
    for (const c of p.components) for (const x of [...c.papers, ...c.operations]) if (x.img) optionImages.add(x.img);
  }
  for (const img of optionImages) {
    const swatch = SWATCHES[path.basename(img)];
    if (!swatch) throw new Error(`no swatch drawn for ${img}`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">${swatch}</svg>`;
    await put(img, await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
  }
  console.log(`wrote ${written.length} files under ${ASSETS}:\n  ${written.join('\n  ')}`);
}

await main();
