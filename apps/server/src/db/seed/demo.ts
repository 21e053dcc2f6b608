import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { customerHubs, customerLocations, customers, locationProvinces, operators, users } from '../schema/index.ts';
import { catalogueStoreDirs, formatProblem, importCatalogue, parseCatalogueFile, type ImportSummary } from './import.ts';
import { lockSeeding } from './lock.ts';
import { hashPassword } from './passwords.ts';
import { seedRegions } from './regions.ts';

/** The committed demo files: templates under assets/templates, pictures under assets/{products,options}. */
export const ASSETS_DIR = fileURLToPath(new URL('../../../assets/', import.meta.url));
export const DEMO_CATALOGUE_FILE = fileURLToPath(new URL('./demo-catalogue.json', import.meta.url));

type DemoHub = {
  id: number;
  name: string;
  batchAddressParsing: boolean;
  customer: string;
  login: string;
  password: string;
  address: { contact: string; phone: string; province: string; city: string; district: string; address: string };
};

/** The demo shop's operator (decisions.md §2). */
export const DEMO_OPERATOR = { login: 'operator', password: 'operator' } as const;

/** The two demo hubs of ../shared/spec/decisions.md §1; their names are the ones the demo catalogue prices. */
export const DEMO_HUBS: readonly DemoHub[] = [
  {
    id: 1, name: '演示门店客户', batchAddressParsing: false, customer: '演示客户', login: 'demo', password: 'demo',
    address: { contact: '张伟', phone: '13800138000', province: '广东省', city: '深圳市', district: '南山区', address: '粤海街道科技园南区高新南七道 R2-B 栋 3 楼' },
  },
  {
    id: 2, name: '分批收货客户', batchAddressParsing: true, customer: '分批收货客户', login: 'partial', password: 'partial',
    address: { contact: '李娜', phone: '13900139000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路 90 号东部软件园 5 号楼 402 室' },
  },
];

export type SeedDemoResult = { seeded: false } | { seeded: true; hubs: number[]; catalogue: ImportSummary };

/**
 * Seeds the demo shop on a database without any customer hub: hubs 1 and 2 with their customer, login and
 * default address, the regions of mainland China, and the demo catalogue with its prices and templates.
 * Does nothing when a hub exists, so a second start (or a second process starting at the same time,
 * waiting on the seeding lock) leaves everything as it is. Regions are filled when empty in any case.
 */
export async function seedDemo(db: Db, opts: { dataDir: string }): Promise<SeedDemoResult> {
  // The usual case, a restart of a seeded shop, answers without the lock or the slow password hashing.
  const [hubs] = await db.select({ n: count() }).from(customerHubs);
  const [provinces] = await db.select({ n: count() }).from(locationProvinces);
  if ((hubs?.n ?? 0) > 0 && (provinces?.n ?? 0) > 0) return { seeded: false };

  const parsed = parseCatalogueFile(await readFile(DEMO_CATALOGUE_FILE, 'utf8'));
  if (!parsed.ok) throw new Error(`demo-catalogue.json is invalid:\n${parsed.problems.map(formatProblem).join('\n')}`);
  // Hashing is slow on purpose; doing it before taking the lock keeps the lock short.
  const hashes = await Promise.all(DEMO_HUBS.map((h) => hashPassword(h.password)));
  const operatorHash = await hashPassword(DEMO_OPERATOR.password);

  return db.transaction(async (tx) => {
    await lockSeeding(tx);
    await seedRegions(tx);
    const [hubCount] = await tx.select({ n: count() }).from(customerHubs);
    if ((hubCount?.n ?? 0) > 0) return { seeded: false };

    for (const [i, h] of DEMO_HUBS.entries()) {
      // Explicit ids so the demo logins land on hubs 1 and 2 whatever the sequence says.
      await tx.insert(customerHubs).values({ id: h.id, name: h.name, batchAddressParsing: h.batchAddressParsing });
      const [customer] = await tx.insert(customers).values({ hubId: h.id, name: h.customer }).returning({ id: customers.id });
      if (!customer) throw new Error('insert returned no row');
      await tx.insert(users).values({ login: h.login, passwordHash: hashes[i] ?? '', customerId: customer.id, hubId: h.id, authorities: ['ROLE_USER'] });
      await tx.insert(customerLocations).values({ hubId: h.id, customerId: customer.id, ...h.address, isDefault: true });
    }
    await tx.insert(operators).values({ login: DEMO_OPERATOR.login, passwordHash: operatorHash });
    // Explicit ids do not move the serial sequence; without this the next hub would collide with hub 1.
    await tx.execute(sql`select setval(pg_get_serial_sequence('customer_hubs', 'id'), (select max(id) from customer_hubs))`);

    const catalogue = await importCatalogue(tx, parsed.catalogue, {
      templatesSourceDir: `${ASSETS_DIR}templates`,
      imagesSourceDir: ASSETS_DIR,
      ...catalogueStoreDirs(opts.dataDir),
      source: 'demo-catalogue.json',
    });
    return { seeded: true, hubs: DEMO_HUBS.map((h) => h.id), catalogue };
  });
}
