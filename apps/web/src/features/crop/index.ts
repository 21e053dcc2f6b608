/**
 * The public entry of features/crop: The crop dialog (调整尺寸). Other features and app/ import only this.
 */
export { CropDialog, cropRefusal } from './components/CropDialog.tsx';
export type { CropResult, CropTarget } from './components/CropDialog.tsx';
