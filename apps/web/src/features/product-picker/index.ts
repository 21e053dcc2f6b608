/**
 * The public entry of features/product-picker: Choosing a product and its SKU. Other features and app/
 * import only this.
 */
export { ProductChooser } from './components/ProductChooser.tsx';
export type { ProductChoice } from './components/ProductDetailsDialog.tsx';
