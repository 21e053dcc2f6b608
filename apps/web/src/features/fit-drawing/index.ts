/**
 * The public entry of features/fit-drawing: a file drawn over its required size (issue #20 item 4), for
 * 文件详情 and the triage. Other features and app/ import only this.
 */
export { FitDrawing, type FitDrawingProps } from './components/FitDrawing.tsx';
export { fitGeometry, percentText, type FitGeometry } from './lib/geometry.ts';
