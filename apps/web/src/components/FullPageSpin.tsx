import { Flex, Spin } from 'antd';

/** Shown while a lazy page or the session loads. */
export function FullPageSpin() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '60vh' }}>
      <Spin size="large" />
    </Flex>
  );
}
