import { AppstoreOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { LIMITS } from '@portal/contract/enums';
import type { Category, ProductSummary, SkuRow } from '@portal/contract/api';
import { Button, Empty, Flex, Input, Modal, Pagination, Result, Segmented, Spin, Table, Tag, Tree, Typography, theme } from 'antd';
import type { TableColumnsType, TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { useCategoryProductsPage } from '../api/category-products-page.ts';
import { useProductCategories } from '../api/categories.ts';
import { useProductsPage } from '../api/products-page.ts';
import { defaultProductImage, productImageOf } from '../lib/product-image.ts';

const ALL = 'all';
const PAGE_SIZES = LIMITS.pickerPageSizes.map(String);
const CARD_IMAGE = 132;

type Mode = 'card' | 'table';

function treeOf(categories: readonly Category[]): TreeDataNode[] {
  return categories.map((c) => ({ key: String(c.id), title: c.name, children: treeOf(c.categories) }));
}

function ProductCard({ product, onPick }: { product: ProductSummary; onPick: (p: ProductSummary) => void }) {
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  return (
    <button
      type="button"
      aria-label={product.name}
      onClick={() => onPick(product)}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{
        display: 'flex',
        flexDirection: 'column',
        padding: 0,
        textAlign: 'left',
        cursor: 'pointer',
        background: token.colorBgContainer,
        border: `1px solid ${hover ? token.colorPrimary : token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        overflow: 'hidden',
        boxShadow: hover ? token.boxShadowTertiary : 'none',
        transition: `border-color ${token.motionDurationMid}, box-shadow ${token.motionDurationMid}`,
        minWidth: 0,
        font: 'inherit',
      }}
    >
      <img
        src={productImageOf(product.productImage)}
        alt=""
        loading="lazy"
        onError={(e) => {
          const fallback = defaultProductImage();
          if (e.currentTarget.src !== fallback) e.currentTarget.src = fallback;
        }}
        style={{ width: '100%', height: CARD_IMAGE, objectFit: 'cover', background: token.colorFillQuaternary, display: 'block' }}
      />
      <span style={{ padding: '8px 10px', display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0, width: '100%', boxSizing: 'border-box' }}>
        <Typography.Text strong ellipsis title={product.name}>
          {product.name}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
          {product.number} · {product.productCategoryName}
        </Typography.Text>
      </span>
    </button>
  );
}

interface Filters {
  categoryId?: number;
  keyword: string;
}

function CardList({ filters, onPick }: { filters: Filters; onPick: (p: ProductSummary) => void }) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(LIMITS.cardPickerDefaultSize);
  const [lastFilters, setLastFilters] = useState(filters);
  if (lastFilters !== filters) {
    // A new category or keyword starts at the first page.
    setLastFilters(filters);
    setPage(0);
  }
  const query = useProductsPage({ page, size, productCategoryId: filters.categoryId, productName: filters.keyword });

  let body;
  if (query.isPending) body = <Spin style={{ display: 'block', padding: 64 }} />;
  else if (query.isError) body = <Result status="warning" title="产品加载失败" subTitle={errorMessage(query.error)} />;
  else if (query.data.items.length === 0) body = <Empty description="没有找到产品" style={{ padding: '64px 0' }} />;
  else {
    body = (
      <div
        role="list"
        aria-label="产品列表"
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 12, opacity: query.isPlaceholderData ? 0.6 : 1 }}
      >
        {query.data.items.map((p) => (
          <div role="listitem" key={p.id} style={{ display: 'flex', minWidth: 0 }}>
            <ProductCard product={p} onPick={onPick} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <Flex vertical gap={12} style={{ minHeight: 0, flex: 1 }}>
      <div style={{ flex: 1, minHeight: 0, overflowY: 'auto', paddingRight: 4 }}>{body}</div>
      <Flex justify="flex-end">
        <Pagination
          size="small"
          current={page + 1}
          pageSize={size}
          total={query.data?.total ?? 0}
          showSizeChanger
          pageSizeOptions={PAGE_SIZES}
          showTotal={(total) => `共${total}个产品`}
          onChange={(p, s) => {
            if (s !== size) {
              setSize(s);
              setPage(0);
            } else setPage(p - 1);
          }}
        />
      </Flex>
    </Flex>
  );
}

function SkuTable({ filters, onPick }: { filters: Filters; onPick: (row: SkuRow) => void }) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(LIMITS.tablePickerDefaultSize);
  const [lastFilters, setLastFilters] = useState(filters);
  if (lastFilters !== filters) {
    setLastFilters(filters);
    setPage(0);
  }
  const query = useCategoryProductsPage({ page, size, productCategoryId: filters.categoryId, productName: filters.keyword });
  const columns = useMemo<TableColumnsType<SkuRow>>(
    () => [
      { title: '名称', dataIndex: 'productName', key: 'name', width: 180, ellipsis: true },
      {
        title: '详情',
        dataIndex: 'sku',
        key: 'sku',
        render: (sku: string, row) => (
          <Flex gap={6} align="center" wrap>
            <span>{sku.split(';').join('；')}</span>
            {!row.saleable && <Tag color="default">暂不销售</Tag>}
          </Flex>
        ),
      },
      { title: '编号', dataIndex: 'number', key: 'number', width: 130 },
      {
        title: '',
        key: 'pick',
        width: 72,
        render: (_: unknown, row) => (
          <Button type="link" size="small" onClick={() => onPick(row)}>
            选择
          </Button>
        ),
      },
    ],
    [onPick],
  );
  if (query.isError) return <Result status="warning" title="产品加载失败" subTitle={errorMessage(query.error)} />;
  return (
    <div style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
      <Table<SkuRow>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        onRow={(row) => ({ onDoubleClick: () => onPick(row) })}
        pagination={{
          size: 'small',
          current: page + 1,
          pageSize: size,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => `共${total}条`,
          onChange: (p, s) => {
            if (s !== size) {
              setSize(s);
              setPage(0);
            } else setPage(p - 1);
          },
        }}
      />
    </div>
  );
}

export interface ProductPickerDialogProps {
  open: boolean;
  onClose: () => void;
  /** A card of the card list was clicked. */
  onPickProduct: (product: ProductSummary) => void;
  /** A SKU row of the table picker was chosen. */
  onPickSku: (row: SkuRow) => void;
  /** Which works the choice is for, said in the title (选择产品 of 300 checked rows said nothing). */
  note?: string | undefined;
}

/**
 * 选择产品: category tree, keyword search and either the card list of products (getProductsPage)
 * or the table of SKUs (getCategoryProductsPage), each paged 10 to 100 at a time.
 */
export function ProductPickerDialog({ open, onClose, onPickProduct, onPickSku, note }: ProductPickerDialogProps) {
  const { token } = theme.useToken();
  const categories = useProductCategories(open);
  const [mode, setMode] = useState<Mode>('card');
  const [filters, setFilters] = useState<Filters>({ keyword: '' });
  const [typed, setTyped] = useState('');
  const treeData = useMemo<TreeDataNode[]>(
    () => [{ key: ALL, title: '全部产品', children: treeOf(categories.data ?? []) }],
    [categories.data],
  );

  return (
    <Modal
      open={open}
      title={note ? `选择产品（${note}）` : '选择产品'}
      onCancel={onClose}
      width={1080}
      footer={null}
      destroyOnHidden
      styles={{ body: { height: '68vh', minHeight: 420 } }}
    >
      <Flex gap={16} style={{ height: '100%' }}>
        <div
          style={{
            width: 200,
            flexShrink: 0,
            borderRight: `1px solid ${token.colorBorderSecondary}`,
            paddingRight: 8,
            overflowY: 'auto',
          }}
        >
          <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
            产品分类
          </Typography.Text>
          {categories.isPending ? (
            <Spin size="small" />
          ) : (
            <Tree
              aria-label="产品分类"
              treeData={treeData}
              defaultExpandAll
              blockNode
              selectedKeys={[filters.categoryId === undefined ? ALL : String(filters.categoryId)]}
              onSelect={(keys) => {
                const key = keys[0];
                if (key === undefined) return;
                setFilters((f) => ({ ...f, categoryId: key === ALL ? undefined : Number(key) }));
              }}
            />
          )}
        </div>
        <Flex vertical gap={12} style={{ flex: 1, minWidth: 0 }}>
          <Flex gap={12} align="center">
            <Input.Search
              aria-label="搜索产品"
              placeholder="输入产品名称或编号"
              allowClear
              enterButton="搜索"
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                // Clearing the box shows everything again at once.
                if (!e.target.value) setFilters((f) => ({ ...f, keyword: '' }));
              }}
              onSearch={(value) => setFilters((f) => ({ ...f, keyword: value.trim() }))}
              style={{ flex: 1 }}
            />
            <Segmented<Mode>
              value={mode}
              onChange={setMode}
              options={[
                { value: 'card', label: '卡片', icon: <AppstoreOutlined /> },
                { value: 'table', label: '列表', icon: <UnorderedListOutlined /> },
              ]}
            />
          </Flex>
          {mode === 'card' ? <CardList filters={filters} onPick={onPickProduct} /> : <SkuTable filters={filters} onPick={onPickSku} />}
        </Flex>
      </Flex>
    </Modal>
  );
}
