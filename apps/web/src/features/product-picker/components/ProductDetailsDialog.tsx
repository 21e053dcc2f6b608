import { CheckOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ObjectItem, ProductDetails, PropertyConfig } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { toleranceText } from '@portal/contract/rules';
import { App, Button, Descriptions, Flex, Modal, Result, Skeleton, Spin, Typography, theme } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { useSuggestedPrice, type PriceAnswer } from '../api/price.ts';
import { useProductDetails } from '../api/product-details.ts';
import {
  choiceItems,
  configOf,
  isValueAvailable,
  pageCountLines,
  pruneSelection,
  selectionOf,
  toggleOption,
  type Selection,
} from '../lib/options.ts';
import { defaultProductImage, productImageOf } from '../lib/product-image.ts';
import { downloadTemplate, templateFailureText } from '../lib/template.ts';
import { DIALOG_TOP, SCROLLING_DIALOG } from '../../../lib/styles.ts';

/** What the customer chose: the product and one of its SKUs. */
export interface ProductChoice {
  product: ProductDetails;
  config: PropertyConfig;
}

const OPTION_IMAGE = 36;

function OptionTile({
  label,
  remark,
  img,
  selected,
  disabled,
  onClick,
}: {
  label: string;
  remark: string | null;
  img: string | null;
  selected: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  const { token } = theme.useToken();
  return (
    <button
      type="button"
      aria-pressed={selected}
      disabled={disabled}
      title={disabled ? '与已选的选项不能组合' : (remark ?? undefined)}
      onClick={onClick}
      style={{
        position: 'relative',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        width: 196,
        minHeight: 52,
        padding: '6px 10px',
        textAlign: 'left',
        font: 'inherit',
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.45 : 1,
        background: selected ? token.colorPrimaryBg : disabled ? token.colorFillQuaternary : token.colorBgContainer,
        border: `1px solid ${selected ? token.colorPrimary : token.colorBorder}`,
        borderRadius: token.borderRadius,
        transition: `border-color ${token.motionDurationMid}, background ${token.motionDurationMid}`,
      }}
    >
      {img && (
        <img
          src={img}
          alt=""
          width={OPTION_IMAGE}
          height={OPTION_IMAGE}
          style={{ objectFit: 'cover', borderRadius: token.borderRadiusSM, flexShrink: 0 }}
          onError={(e) => {
            const fallback = defaultProductImage();
            if (e.currentTarget.src !== fallback) e.currentTarget.src = fallback;
          }}
        />
      )}
      <span style={{ display: 'flex', flexDirection: 'column', minWidth: 0, flex: 1 }}>
        <span style={{ fontWeight: 500, color: selected ? token.colorPrimary : token.colorText }}>{label}</span>
        {remark && (
          <span
            style={{
              fontSize: 12,
              lineHeight: '16px',
              color: token.colorTextSecondary,
              overflow: 'hidden',
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
            }}
          >
            {remark}
          </span>
        )}
      </span>
      {selected && <CheckOutlined style={{ position: 'absolute', top: 4, right: 6, fontSize: 11, color: token.colorPrimary }} />}
    </button>
  );
}

function OptionGroup({
  product,
  item,
  selection,
  onToggle,
}: {
  product: ProductDetails;
  item: ObjectItem;
  selection: Selection;
  onToggle: (itemId: number, valueId: number) => void;
}) {
  return (
    <Flex gap={12} align="flex-start" role="group" aria-label={item.item.name}>
      <Typography.Text type="secondary" style={{ width: 56, flexShrink: 0, lineHeight: '52px' }}>
        {item.item.name}
      </Typography.Text>
      <Flex gap={8} wrap style={{ flex: 1 }}>
        {item.itemValues.map((v) => {
          const selected = selection[item.item.id] === v.id;
          return (
            <OptionTile
              key={v.id}
              label={v.itemValue}
              remark={v.remark}
              img={v.img}
              selected={selected}
              disabled={!selected && !isValueAvailable(product, selection, item.item.id, v.id)}
              onClick={() => onToggle(item.item.id, v.id)}
            />
          );
        })}
      </Flex>
    </Flex>
  );
}

const BASIS_TEXT: Record<PriceAnswer['priceBasis'], (unit: string, pages: number) => string> = {
  print: (unit) => `按${unit}计价（每个文件或每页一${unit}，× 订购数量）`,
  copy: (unit, pages) => `按${unit}计价（每${unit}含${pages}页）`,
  area: () => '按面积计价（文件面积 × 订购数量，不足0.01㎡按0.01㎡计）',
};

/** 建议零售价: the customer's price at quantity 1, 暂无 without one, 暂不销售 for a SKU not for sale. */
function PriceArea({ product, config }: { product: ProductDetails; config: PropertyConfig | undefined }) {
  const { token } = theme.useToken();
  const price = useSuggestedPrice(config ? product.id : undefined, config?.id);
  let content;
  if (!config) content = <Typography.Text type="secondary">{MSG.selectProduct}</Typography.Text>;
  else if (!config.saleable || price.data?.saleable === false) content = <Typography.Text type="danger">{MSG.notSaleable}</Typography.Text>;
  else if (price.isPending) content = <Spin size="small" />;
  else if (price.isError || price.data.amount === null) content = <Typography.Text type="secondary">{MSG.priceMissing}</Typography.Text>;
  else {
    // The price counts what the product's basis says (../shared/spec/decisions.md §6): a print, a copy (pages above the base
    // have their own price) or a m².
    const { priceUnit, extraPageAmount, breaks } = price.data;
    content = (
      <Flex align="baseline" gap={8} wrap>
        <Typography.Text style={{ color: token.colorError, fontSize: 22, fontWeight: 600 }}>¥{price.data.amount.toFixed(2)}</Typography.Text>
        <Typography.Text type="secondary">/{priceUnit}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="price-basis">
          {BASIS_TEXT[price.data.priceBasis](priceUnit, product.pageCount)}
          {extraPageAmount !== null && `，加页每页 ¥${extraPageAmount.toFixed(2)}/${priceUnit}`}
        </Typography.Text>
        {breaks.length > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="price-breaks">
            数量优惠：{breaks.map((b) => `${b.from}${priceUnit}起 ¥${b.amount.toFixed(2)}/${priceUnit}`).join('，')}
          </Typography.Text>
        )}
      </Flex>
    );
  }
  return (
    <Flex
      align="center"
      gap={12}
      data-testid="suggested-price"
      style={{ background: token.colorFillAlter, padding: '8px 12px', borderRadius: token.borderRadius, minHeight: 48 }}
    >
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        建议零售价
      </Typography.Text>
      {content}
    </Flex>
  );
}

function ComponentsList({ product }: { product: ProductDetails }) {
  const { modal } = App.useApp();
  const [busy, setBusy] = useState<number | null>(null);
  const components = product.components.filter((c) => !c.cancelled);
  if (components.length === 0) return null;

  const download = async (id: number, url: string, fileName: string) => {
    setBusy(id);
    try {
      await downloadTemplate(url, fileName);
    } catch {
      modal.error({ title: '模板下载失败', content: templateFailureText(fileName), okText: '知道了' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap={6}>
      {components.map((c) => (
        <Flex key={c.id} align="center" gap={12} wrap style={{ fontSize: 13 }}>
          <Typography.Text strong style={{ minWidth: 56 }}>
            {c.name}
          </Typography.Text>
          <Typography.Text>
            {c.width}×{c.height} mm（{toleranceText(c)}）
          </Typography.Text>
          <Typography.Text type="secondary">分辨率≥{c.resolutionThreshold} dpi</Typography.Text>
          {c.objectPapers.length > 0 && (
            <Typography.Text type="secondary">{c.objectPapers.map((p) => p.paper).join('、')}</Typography.Text>
          )}
          {c.templateFileUpload && c.templateRelativeUrl && (
            <Button
              size="small"
              type="link"
              icon={<DownloadOutlined />}
              loading={busy === c.id}
              onClick={() => void download(c.id, c.templateRelativeUrl as string, c.templateFileName ?? `${c.name}模板`)}
            >
              下载模板
            </Button>
          )}
        </Flex>
      ))}
    </Flex>
  );
}

export interface ProductDetailsDialogProps {
  /** The product to show; the dialog is closed when undefined. */
  productId: number | undefined;
  /** The SKU to start from (重选产品 of a row, or a row of the table picker). */
  initialConfigId?: number;
  /**
   * Locked mode: the options cannot be switched. `true` refuses with 当前sku不可切换, a string
   * refuses with that text.
   */
  locked?: boolean | string;
  onClose: () => void;
  onConfirm: (choice: ProductChoice) => void;
  /** Label of the confirm button. */
  okText?: string;
}

/**
 * 商品详情: the product with its option items (images and remarks), the suggested retail price of
 * the chosen SKU, the page-count rules, each component's size and template. Confirm hands over a
 * complete, saleable selection only.
 */
export function ProductDetailsDialog({ productId, initialConfigId, locked, onClose, onConfirm, okText = '确定' }: ProductDetailsDialogProps) {
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const details = useProductDetails(productId);
  const product = details.data;
  const [selection, setSelection] = useState<Selection>({});
  const [seeded, setSeeded] = useState<string | undefined>();

  // A new product (or a new starting SKU) starts from the given SKU's options, else from the SKU
  // marked default (jhiDefault), else from nothing. Keyed by id: a refetch brings a new object
  // (fresh template signatures) and must not undo the choice. Closing forgets the seed, so the
  // next opening starts afresh instead of showing a choice the customer cancelled.
  const seedKey = product && productId !== undefined ? `${product.id}:${initialConfigId ?? ''}` : undefined;
  if (seedKey !== seeded) {
    setSeeded(seedKey);
    if (product && seedKey !== undefined) {
      const live = product.propertyConfigs.filter((c) => !c.cancelled);
      const initial = live.find((c) => c.id === initialConfigId) ?? live.find((c) => c.jhiDefault);
      setSelection(pruneSelection(product, selectionOf(product, initial)));
    } else setSelection({});
  }

  const config = product ? configOf(product, selection) : undefined;

  const onToggle = (itemId: number, valueId: number) => {
    if (locked) {
      void message.warning(typeof locked === 'string' ? locked : MSG.optionLocked);
      return;
    }
    setSelection((s) => (product ? toggleOption(s, itemId, valueId) : s));
  };

  const confirm = () => {
    if (!product || !config) {
      void message.warning(MSG.selectProduct);
      return;
    }
    if (!config.saleable) {
      void message.error(MSG.notSaleable);
      return;
    }
    onConfirm({ product, config });
  };

  let body;
  if (details.isPending) body = <Skeleton active avatar={{ shape: 'square', size: 120 }} paragraph={{ rows: 6 }} />;
  else if (details.isError) body = <Result status="warning" title="商品详情加载失败" subTitle={errorMessage(details.error)} />;
  else if (product) {
    body = (
      <Flex vertical gap={16}>
        <Flex gap={16} align="flex-start">
          <img
            src={productImageOf(product.productImage)}
            alt={product.name}
            width={128}
            height={128}
            style={{ objectFit: 'cover', borderRadius: token.borderRadiusLG, background: token.colorFillQuaternary, flexShrink: 0 }}
            onError={(e) => {
              const fallback = defaultProductImage();
              if (e.currentTarget.src !== fallback) e.currentTarget.src = fallback;
            }}
          />
          <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {product.name}
            </Typography.Title>
            <Descriptions
              size="small"
              column={2}
              items={[
                { key: 'number', label: '编号', children: product.number },
                { key: 'category', label: '分类', children: product.productCategoryName },
                { key: 'sku', label: '已选', children: config ? config.sku.split(';').join('；') : '—', span: 2 },
              ]}
            />
            <PriceArea product={product} config={config} />
          </Flex>
        </Flex>
        {choiceItems(product).length > 0 && (
          <Flex vertical gap={10}>
            {choiceItems(product).map((item) => (
              <OptionGroup key={item.item.id} product={product} item={item} selection={selection} onToggle={onToggle} />
            ))}
          </Flex>
        )}
        <Flex vertical gap={4} style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, paddingTop: 12 }}>
          <Typography.Text type="secondary">页数</Typography.Text>
          {pageCountLines(product, config).map((line) => (
            <Typography.Text key={line} style={{ fontSize: 13 }}>
              {line}
            </Typography.Text>
          ))}
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text type="secondary">部件与模板</Typography.Text>
          <ComponentsList product={product} />
        </Flex>
      </Flex>
    );
  }

  return (
    <Modal
      open={productId !== undefined}
      title="商品详情"
      width={760}
      style={DIALOG_TOP}
      styles={SCROLLING_DIALOG}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center">
          <Typography.Text type={config ? undefined : 'secondary'}>{config ? '' : MSG.selectProduct}</Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" onClick={confirm} disabled={!product}>
              {okText}
            </Button>
          </Flex>
        </Flex>
      }
    >
      {body}
    </Modal>
  );
}
