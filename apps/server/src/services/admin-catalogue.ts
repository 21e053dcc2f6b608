import type { Db } from '../db/client.ts';
import { CatalogueImportError, formatSummary, importCatalogue, parseCatalogueFile, type CatalogueProblem } from '../db/seed/import.ts';
import { AppError } from '../errors.ts';

const refused = (problems: CatalogueProblem[]) =>
  new AppError(422, 'catalogue-invalid', `目录文件有 ${problems.length} 个问题，未导入`, { message: `目录文件有 ${problems.length} 个问题，未导入`, code: 'catalogue-invalid', problems });

/**
 * The catalogue import of the console: the same validation and import as `npm run import-catalogue`
 * (db/seed/import.ts), for a JSON file uploaded alone. Its templates must already be in the shop's store.
 */
export function createAdminCatalogueService(db: Db, dirs: { templatesDir: string; imagesDir: string }) {
  return {
    async import(jsonText: string, opts: { dryRun: boolean; prune: boolean }) {
      const parsed = parseCatalogueFile(jsonText);
      if (!parsed.ok) throw refused(parsed.problems);
      if (opts.dryRun) return { imported: false, summary: [`共 ${parsed.catalogue.products.length} 个产品，格式正确`] };
      try {
        const summary = await importCatalogue(db, parsed.catalogue, {
          templatesSourceDir: dirs.templatesDir, templatesDir: dirs.templatesDir, storedTemplatesOnly: true,
          // Pictures named by a relative path must already be among the shop's pictures; URLs are kept as given.
          imagesSourceDir: dirs.imagesDir, imagesDir: dirs.imagesDir,
          source: 'console upload', prune: opts.prune,
        });
        return { imported: true, summary: formatSummary(summary).map((l) => l.trim()) };
      } catch (e) {
        if (e instanceof CatalogueImportError) throw refused(e.problems);
        throw e;
      }
    },
  };
}
