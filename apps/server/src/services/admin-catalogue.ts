import type { Db } from '../db/client.ts';
import { exportCatalogue } from '../db/seed/export.ts';
import { CatalogueImportError, formatSummary, importCatalogue, parseCatalogueFile, type CatalogueProblem } from '../db/seed/import.ts';
import { AppError } from '../errors.ts';

const refused = (problems: CatalogueProblem[]) =>
  new AppError(422, 'catalogue-invalid', `目录文件有 ${problems.length} 个问题，未导入`, { message: `目录文件有 ${problems.length} 个问题，未导入`, code: 'catalogue-invalid', problems });

/**
 * The catalogue import of the console: the same validation and import as `npm run import-catalogue`
 * (db/seed/import.ts), for a JSON file uploaded alone. Its templates must already be in the shop's store.
 * The export is the catalogue as it is, in that file's format, to edit and import again.
 */
export function createAdminCatalogueService(db: Db, dirs: { templatesDir: string; imagesDir: string }) {
  return {
    export: () => exportCatalogue(db),

    async import(file: Uint8Array, opts: { dryRun: boolean; prune: boolean }) {
      const parsed = parseCatalogueFile(file);
      if (!parsed.ok) throw refused(parsed.problems);
      try {
        // A check (dryRun) runs the import and rolls it back: it says what the import would change, products
        // left out and cancelled included (it said only 共 8 个产品，格式正确: the operator check from another PC).
        const summary = await importCatalogue(db, parsed.catalogue, {
          dryRun: opts.dryRun,
          templatesSourceDir: dirs.templatesDir, templatesDir: dirs.templatesDir, storedTemplatesOnly: true,
          // Pictures named by a relative path must already be among the shop's pictures; URLs are kept as given.
          imagesSourceDir: dirs.imagesDir, imagesDir: dirs.imagesDir,
          source: 'console upload', prune: opts.prune,
        });
        const lines = formatSummary(summary).map((l) => l.trim());
        return opts.dryRun
          ? { imported: false, summary: [`格式正确，共 ${parsed.catalogue.products.length} 个产品。导入将：`, ...lines] }
          : { imported: true, summary: lines };
      } catch (e) {
        if (e instanceof CatalogueImportError) throw refused(e.problems);
        throw e;
      }
    },
  };
}
