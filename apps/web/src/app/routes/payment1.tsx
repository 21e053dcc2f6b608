import { Card, Flex, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAccount } from '../../features/auth/index.ts';
import { useBatch } from '../../features/batch/index.ts';
import { usePlaceBatchOrder, type PlacedBatch, OrderConfirm, OrderPlaced, batchBodyOf } from '../../features/orders/index.ts';
import { orderedServerDraft } from '../../features/draft/index.ts';
import { clearDraft, readDraft, resetBatch } from '../../features/submit/index.ts';

/**
 * Order confirmation (../shared/spec/decisions.md §7): reads the batch draft, shows the server's quote and places the
 * order with the draft's idempotency key. Once placed, the draft and the batch page's rows are
 * cleared: those works are ordered.
 */
export function Payment1Route() {
  const navigate = useNavigate();
  const batch = useBatch();
  // The guard above this page has loaded the account. Read once: the page shows the draft it
  // opened with, even after the order clears it.
  const customerHubId = useAccount().data?.customerHubId;
  const [draft] = useState(() => (customerHubId === undefined ? null : readDraft(customerHubId)));
  const [placed, setPlaced] = useState<PlacedBatch | null>(null);
  const place = usePlaceBatchOrder();

  let body;
  if (placed) {
    body = <OrderPlaced placed={placed} />;
  } else if (!draft || draft.fileList.length === 0) {
    body = (
      <Card>
        <Result status="info" title="没有待确认的订单" subTitle="请先在批量上传下单页面上传文件并点击批量下单" extra={<Link to="/batch-upload">返回批量上传下单</Link>} />
      </Card>
    );
  } else {
    body = (
      <OrderConfirm
        draft={draft}
        placing={place.isPending}
        placeError={place.error}
        onBack={() => void navigate('/batch-upload')}
        onPlace={(confirmed) => {
          if (place.isPending) return;
          place.mutate(batchBodyOf(draft, confirmed), {
            onSuccess: (answer) => {
              clearDraft();
              orderedServerDraft(batch);
              resetBatch(batch);
              setPlaced(answer);
            },
          });
        }}
      />
    );
  }

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        确认订单
      </Typography.Title>
      {body}
    </Flex>
  );
}
