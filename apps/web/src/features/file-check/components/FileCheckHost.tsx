import { App } from 'antd';
import { useEffect } from 'react';
import { useAccount } from '../../auth/index.ts';
import { ProductChooser, type ProductChoice } from '../../product-picker/index.ts';
import { useBatch } from '../../batch/index.ts';
import { checkFlowOf, type SkuChoice } from '../check-works.ts';
import { closeFileDetail, closeProductChooser, useFileCheckDialogs } from '../dialogs.ts';
import { FileDetailDialog } from './FileDetailDialog.tsx';

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

/**
 * The file check's dialogs, rendered once by the page: the product choice (选择产品 / 重选产品,
 * which checks the works against the chosen SKU) and 文件详情. Also installs the page's toasts for
 * the check's outcomes.
 */
export function FileCheckHost() {
  const { message } = App.useApp();
  const customerHubId = useAccount().data?.customerHubId;
  const { checkWorks, setCheckNotifier } = checkFlowOf(useBatch());
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

  return (
    <>
      <ProductChooser
        open={chooser !== undefined}
        initial={chooser?.initial}
        onClose={closeProductChooser}
        onChosen={(choice) => {
          const uuids = chooser?.uuids ?? [];
          closeProductChooser();
          if (customerHubId !== undefined) void checkWorks(uuids, skuChoiceOf(choice), customerHubId);
        }}
      />
      <FileDetailDialog workUuid={detail?.workUuid} onClose={closeFileDetail} />
    </>
  );
}
