import { boolean, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex, index, doublePrecision } from 'drizzle-orm/pg-core';

/** Categories form a tree (parentId null at the root). The catalogue belongs to the print shop. */
export const productCategories = pgTable('product_categories', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  number: text('number').notNull(),
  name: text('name').notNull(),
  categoryId: integer('category_id').notNull().references(() => productCategories.id),
  productImage: text('product_image'),
  /** Base page count: pages above it are extra pages (addPageNum). */
  pageCount: integer('page_count').notNull().default(1),
  minNumberOfPages: integer('min_number_of_pages'),
  maxNumberOfPages: integer('max_number_of_pages'),
  /**
   * What the price counts (domain/pricing.ts): print (pages × copies), copy (with extra-page lines for
   * pages above pageCount) or area (m² × copies). Rows from before it count copies, as prices did then.
   */
  priceBasis: text('price_basis', { enum: ['print', 'copy', 'area'] }).notNull().default('copy'),
  /** The name of one counted unit (张, 本, 盒…); null: the basis's default. */
  priceUnit: text('price_unit'),
  cancelled: boolean('cancelled').notNull().default(false),
  sort: integer('sort').notNull().default(0),
}, (t) => [uniqueIndex('products_number_uq').on(t.number), index('products_category_idx').on(t.categoryId)]);

/** A printed part of a product (封面, 内页 …) with the print rules every file assigned to it must meet. */
export const productComponents = pgTable('product_components', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  uuid: text('uuid').notNull(),
  name: text('name').notNull(),
  cancelled: boolean('cancelled').notNull().default(false),
  width: doublePrecision('width').notNull(),
  height: doublePrecision('height').notNull(),
  error: doublePrecision('error').notNull().default(0),
  errorType: text('error_type', { enum: ['mm', 'percent'] }).notNull().default('mm'),
  autoOrientationDetection: boolean('auto_orientation_detection').notNull().default(false),
  resolutionThreshold: integer('resolution_threshold').notNull().default(0),
  resolutionLimit: integer('resolution_limit'),
  templateFileName: text('template_file_name'),
  /** Path of the template under the shop's template store (DATA_DIR/templates). */
  templatePath: text('template_path'),
  sort: integer('sort').notNull().default(0),
}, (t) => [index('product_components_product_idx').on(t.productId)]);

export const objectPapers = pgTable('object_papers', {
  id: serial('id').primaryKey(),
  componentId: integer('component_id').notNull().references(() => productComponents.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  img: text('img'),
  minPageCount: integer('min_page_count'),
  maxPageCount: integer('max_page_count'),
});

export const objectOperations = pgTable('object_operations', {
  id: serial('id').primaryKey(),
  componentId: integer('component_id').notNull().references(() => productComponents.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  combined: boolean('combined').notNull().default(false),
  img: text('img'),
});

/** An option dimension of a product (尺寸, 纸张 …). */
export const optionItems = pgTable('option_items', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const optionValues = pgTable('option_values', {
  id: serial('id').primaryKey(),
  itemId: integer('item_id').notNull().references(() => optionItems.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  remark: text('remark'),
  img: text('img'),
  sort: integer('sort').notNull().default(0),
});

/** A SKU: one combination of option values. `sku` is the option text joined by semicolons. */
export const propertyConfigs = pgTable('property_configs', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  number: text('number').notNull(),
  sku: text('sku').notNull(),
  skuNumber: text('sku_number').notNull(),
  optionValueIds: jsonb('option_value_ids').$type<number[]>().notNull(),
  saleable: boolean('saleable').notNull().default(true),
  cancelled: boolean('cancelled').notNull().default(false),
  jhiDefault: boolean('jhi_default').notNull().default(false),
  minPageCount: integer('min_page_count'),
  maxPageCount: integer('max_page_count'),
  customToning: boolean('custom_toning').notNull().default(false),
  toning: text('toning', { enum: ['Manual', 'None'] }).notNull().default('None'),
  /** Optional component sizes of this SKU, by component uuid, overriding the component's own. */
  componentSizes: jsonb('component_sizes').$type<Record<string, { width: number; height: number }>>(),
}, (t) => [uniqueIndex('property_configs_number_uq').on(t.number), index('property_configs_product_idx').on(t.productId)]);

/**
 * Price of a SKU for one customer (priceType 'customer', entityId = customer id) or the shop's list price
 * (priceType 'retail', entityId 0), from a minimum quantity on. The quantity is the product's counted
 * units (prints, copies or m²).
 */
export const priceLines = pgTable('price_lines', {
  id: serial('id').primaryKey(),
  priceType: text('price_type', { enum: ['customer', 'retail'] }).notNull(),
  entityId: integer('entity_id').notNull(),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  propertyConfigId: integer('property_config_id').notNull().references(() => propertyConfigs.id, { onDelete: 'cascade' }),
  minQuantity: integer('min_quantity').notNull().default(1),
  /** unit: the price of a counted unit; extraPage: of one page above the base, per copy (copy basis). */
  kind: text('kind', { enum: ['unit', 'extraPage'] }).notNull().default('unit'),
  /** Unit price in yuan. */
  amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
}, (t) => [index('price_lines_lookup_idx').on(t.priceType, t.entityId, t.propertyConfigId)]);

export const catalogueImports = pgTable('catalogue_imports', {
  id: serial('id').primaryKey(),
  source: text('source').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});
