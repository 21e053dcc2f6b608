import { App } from 'antd';
import { useEffect } from 'react';
import { useAccount } from '../../auth/index.ts';
import { ProductChooser, type ProductChoice } from '../../product-picker/index.ts';
import { isPreflightKey, PREFLIGHT_PREFIX, useBatch, type PreflightChoice } from '../../batch/index.ts';
import { checkFlowOf, type SkuChoice } from '../check-works.ts';
import { closeFileDetail, closeProductChooser, useFileCheckDialogs } from '../dialogs.ts';
import { FileDetailDialog, type FileActionsRenderer } from './FileDetailDialog.tsx';

export function skuChoiceOf({ product, config }: ProductChoice): SkuChoice {
  return {
    productId: product.id,
    productName: product.name,
    propertyConfigId: config.id,
    sku: config.sku,
    toning: config.toning,
    customToning: config.customToning,
  };
}

/** What the provisional verdict of an item still uploading needs of the chosen SKU: the check's components and page rule. */
export function preflightChoiceOf(choice: ProductChoice, customerHubId: number): PreflightChoice {
  const { product, config } = choice;
  return {
    product: skuChoiceOf(choice),
    customerHubId,
    components: product.components.filter((c) => !c.cancelled).map((c) => ({
      id: c.id, uuid: c.uuid, name: c.name, width: c.width, height: c.height, error: c.error, errorType: c.errorType,
      autoOrientationDetection: c.autoOrientationDetection, resolutionThreshold: c.resolutionThreshold, resolutionLimit: c.resolutionLimit,
    })),
    pages: { base: product.pageCount, min: config.minPageCount ?? product.minNumberOfPages, max: config.maxPageCount ?? product.maxNumberOfPages, check: true },
  };
}

/**
 * The file check's dialogs, rendered once by the page: the product choice (选择产品 / 重选产品,
 * which checks the works against the chosen SKU) and 文件详情. Also installs the page's toasts for
 * the check's outcomes.
 */
export function FileCheckHost({ renderFileActions }: { renderFileActions?: FileActionsRenderer } = {}) {
  const { message } = App.useApp();
  const customerHubId = useAccount().data?.customerHubId;
  const batch = useBatch();
  const { checkWorks, setCheckNotifier } = checkFlowOf(batch);
  const chooser = useFileCheckDialogs((s) => s.chooser);
  const detail = useFileCheckDialogs((s) => s.detail);

  useEffect(
    () =>
      setCheckNotifier({
        success: (text) => void message.success(text),
        error: (text) => void message.error(text),
        warning: (text) => void message.warning(text),
      }),
    [message, setCheckNotifier],
  );

  // The rows the choice changes, said before it is made: a matched card became 5寸 unnoticed among checked rows
  // scrolled out of view (LAN walk, 2026-11-30).
  const uuids = chooser?.uuids ?? [];
  const chosen = new Set(uuids);
  const replacing = chooser ? batch.worksStore.getState().rows.filter((r) => chosen.has(r.uuid) && r.productId != null).length : 0;
  const note = uuids.length > 1 || (replacing > 0 && !chooser?.initial)
    ? `已勾选${uuids.length}个作品${replacing > 0 ? `，其中${replacing}个已有产品，将改为所选产品并重新校验` : ''}`
    : undefined;

  return (
    <>
      <ProductChooser
        open={chooser !== undefined}
        initial={chooser?.initial}
        note={note}
        onClose={closeProductChooser}
        onChosen={(choice) => {
          const uuids = chooser?.uuids ?? [];
          closeProductChooser();
          if (customerHubId === undefined) return;
          // Items still uploading (preflight rows) get a provisional verdict now, their works the server's check later.
          const preflight = uuids.filter(isPreflightKey).map((k) => k.slice(PREFLIGHT_PREFIX.length));
          if (preflight.length > 0) batch.setPreflightChoice(preflight, preflightChoiceOf(choice, customerHubId));
          const works = uuids.filter((u) => !isPreflightKey(u));
          if (works.length > 0) void checkWorks(works, skuChoiceOf(choice), customerHubId);
        }}
      />
      <FileDetailDialog workUuid={detail?.workUuid} onClose={closeFileDetail} renderFileActions={renderFileActions} />
    </>
  );
}
