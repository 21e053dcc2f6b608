/**
 * The public entry of features/photo-sort: Sorting the photos of a work. Other features and app/
 * import only this.
 */
export { sortWorkFiles } from './api/sort-work-files.ts';
export { SortPhotosButton } from './components/SortPhotosButton.tsx';
