/**
 * The preflight's rows and provisional verdicts, on real photos and PDFs measured by @portal/measure as
 * the browser's worker measures them, against a 5寸 component (127×89 mm ±2 mm, 300 dpi wanted) and an
 * A4 one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as pdfLib from '@cantoo/pdf-lib';
import { bytesSource, measureImage, type CheckComponent } from '@portal/measure';
import { measurePdf } from '@portal/measure/pdf';
import { createPreflight, preflightVerdict, type PreflightChoice, type PreflightItem } from './preflight.ts';

const CAMERA = fileURLToPath(new URL('../../../../server/test/fixtures/camera/Canon_PowerShot_S40.jpg', import.meta.url));

const fiveInch: CheckComponent = {
  id: 1, uuid: 'c1', name: '照片', width: 127, height: 89, error: 2, errorType: 'mm',
  autoOrientationDetection: true, resolutionThreshold: 300, resolutionLimit: null,
};
const choice: PreflightChoice = {
  product: { productId: 1, productName: '5寸照片冲印', propertyConfigId: 1, sku: '相纸:光面', toning: 'None', customToning: true },
  customerHubId: 1,
  components: [fiveInch],
  pages: { base: 1, min: null, max: null, check: true },
};

const item = (files: PreflightItem['files']): PreflightItem => ({ key: 'b/相册', name: '相册', isFolder: true, files });
const fiveInchPhoto = { format: 'jpeg' as const, width: 1500, height: 1051, orientation: 1, dpi: 300, dpiX: 300, dpiY: 300, dpiStated: true, dpiSource: 'jfif' as const };

describe('preflightVerdict', () => {
  it('says nothing before a SKU is chosen, waits for the measures, leaves zips and unreadable files to the server', () => {
    expect(preflightVerdict(item([{ id: 'f1', relativePath: '相册/1.jpg', measure: fiveInchPhoto }]))).toEqual({ state: 'none' });
    expect(preflightVerdict({ ...item([{ id: 'f1', relativePath: '相册/1.jpg' }]), choice })).toEqual({ state: 'measuring' });
    expect(preflightVerdict({ ...item([{ id: 'f1', relativePath: '相册/1.pdf' }]), choice })).toEqual({ state: 'measuring' });
    expect(preflightVerdict({ ...item([{ id: 'f1', relativePath: '相册/1.zip', unmeasured: true }]), choice })).toEqual({ state: 'server' });
    expect(preflightVerdict({ ...item([{ id: 'f1', relativePath: '相册/1.pdf', measure: null }]), choice })).toEqual({ state: 'server' });
  });

  it('judges each page of a PDF measured from its bytes, after /Rotate, as the server check does', async () => {
    const doc = await pdfLib.PDFDocument.create();
    doc.addPage([595.28, 841.89]);
    doc.addPage([841.89, 595.28]).setRotation(pdfLib.degrees(90));
    const pdf = await measurePdf(pdfLib, await doc.save());
    expect(pdf).toEqual({ format: 'pdf', pages: 2, pageSizes: [{ widthMm: 210, heightMm: 297 }, { widthMm: 210, heightMm: 297 }] });
    const a4: CheckComponent = { ...fiveInch, id: 2, name: '内页', width: 210, height: 297, autoOrientationDetection: false, resolutionThreshold: 0 };
    const one = { key: 'b/a4.pdf', name: 'a4.pdf', isFolder: false, files: [{ id: 'f1', relativePath: 'a4.pdf', measure: pdf }] };
    expect(preflightVerdict({ ...one, choice: { ...choice, components: [a4] } })).toEqual({ state: 'match', messages: [] });
    const verdict = preflightVerdict({ ...one, choice });
    expect(verdict.state).toBe('abnormal');
    expect('messages' in verdict && verdict.messages).toEqual([
      'a4.pdf 第1页：尺寸不符：实际210×297mm，标准127×89mm（允许误差±2mm，可横竖互换）',
      'a4.pdf 第2页：尺寸不符：实际210×297mm，标准127×89mm（允许误差±2mm，可横竖互换）',
    ]);
  });

  it('matches a 5寸 print and refuses a camera photo measured from its bytes, with the server check\'s reason', async () => {
    const camera = await measureImage(bytesSource(readFileSync(CAMERA)));
    expect(camera).not.toBeNull();
    expect(preflightVerdict({ ...item([{ id: 'f1', relativePath: '相册/1.jpg', measure: fiveInchPhoto }]), choice }))
      .toEqual({ state: 'match', messages: [] });
    const verdict = preflightVerdict({ ...item([{ id: 'f2', relativePath: '相册/canon.jpg', measure: camera }]), choice });
    expect(verdict.state).toBe('abnormal');
    expect('messages' in verdict && verdict.messages[0]).toMatch(/^canon\.jpg：尺寸不符：实际67\.7×50\.8mm/);
  });
});

describe('the preflight store', () => {
  it('takes measures of its files only, and hands a chosen SKU to the works its item became', () => {
    const p = createPreflight();
    const heard: unknown[] = [];
    p.onPreflightResolved((r) => heard.push(r));
    p.addPreflightItems([item([{ id: 'f1', relativePath: '相册/1.jpg' }])]);
    p.setPreflightMeasures([{ id: 'f1', measure: fiveInchPhoto }, { id: 'other', measure: null }]);
    expect(p.preflightStore.getState().items['b/相册']?.files[0]?.measure).toEqual(fiveInchPhoto);
    p.setPreflightChoice(['b/相册', 'gone'], choice);
    p.resolvePreflightItem('b/相册', ['w1']);
    expect(p.preflightStore.getState()).toEqual({ keys: [], items: {} });
    expect(heard).toEqual([{ workUuids: ['w1'], choice }]);
  });
});
