/**
 * 选择产品 and 商品详情 as a customer goes through them: open the picker (选择产品 for the checked rows,
 * or a row's 重选产品), find the product (by keyword when given), make its options chosen, 确定.
 * Support code the bench imports too (bench/benchmarks/batch-triage.ts): no vitest here.
 */
import type { Locator, Page } from 'playwright-core';
import { openedDialog } from './browser.ts';

export interface ProductChoice {
  /** The product's card in the picker, e.g. 5寸照片冲印. */
  product: string;
  /** Typed into 搜索产品 first; without it the product is clicked among all. */
  keyword?: string;
  /** The beginnings of the options' names, e.g. 光面, 无边框. */
  options: string[];
}

/**
 * Makes an option of 商品详情 chosen. The dialog opens on the SKU marked default or with the last choice
 * made (seeded once the product is there), and a click on a chosen option deselects it: clicked until it
 * shows chosen.
 */
export async function chooseOption(details: Locator, option: string | RegExp): Promise<void> {
  const button = details.getByRole('button', { name: typeof option === 'string' ? new RegExp(`^${option}`) : option });
  for (let clicks = 0; (await button.getAttribute('aria-pressed')) !== 'true'; clicks++) {
    if (clicks === 8) throw new Error(`the option ${String(option)} does not stay chosen`);
    await button.click();
    await button.page().waitForTimeout(250);
  }
}

/** Clicks `opener`, finds and opens the product, chooses its options; answers 商品详情, not yet confirmed. */
export async function openProduct(page: Page, opener: Locator, choice: ProductChoice): Promise<Locator> {
  await opener.click();
  // Each dialog once its opening zoom has ended (pages that keep the motion): 确定 clicked during it was lost.
  const picker = await openedDialog(page.getByRole('dialog', { name: '选择产品' }));
  if (choice.keyword !== undefined) {
    await picker.getByLabel('搜索产品').fill(choice.keyword);
    await picker.getByRole('button', { name: '搜索' }).click();
  }
  await picker.getByRole('button', { name: choice.product }).click();
  const details = await openedDialog(page.getByRole('dialog', { name: '商品详情' }));
  for (const option of choice.options) await chooseOption(details, option);
  return details;
}

/** `openProduct`, then 确定, until 商品详情 has closed. */
export async function chooseProduct(page: Page, opener: Locator, choice: ProductChoice): Promise<void> {
  const details = await openProduct(page, opener, choice);
  await details.getByRole('button', { name: '确定' }).click();
  await details.waitFor({ state: 'hidden' });
}

/** 选择产品 for the checked rows. */
export const chooseForChecked = (page: Page, choice: ProductChoice): Promise<void> =>
  chooseProduct(page, page.getByRole('button', { name: '选择产品', exact: true }), choice);

/** 重选产品 on a row. */
export const chooseForRow = (page: Page, row: Locator, choice: ProductChoice): Promise<void> =>
  chooseProduct(page, row.getByRole('button', { name: '重选产品' }), choice);
