import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { BatchProvider } from '../features/batch/index.ts';
import { queryClient } from '../lib/query-client.ts';
import { usePrefersReducedMotion } from '../lib/reduced-motion.ts';

dayjs.locale('zh-cn');

/**
 * antd in Chinese; `autoInsertSpace: false` keeps two-character labels as written (提交, not 提 交),
 * which is also what the e2e tests look for. antd's `App` gives message/modal their context. The
 * batch (features/batch) is made here, once per page load, so its rows outlive a visit to /payment1.
 * A system set to reduce motion gets antd without its animations (lib/reduced-motion.ts).
 */
export function Providers({ children }: { children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider locale={zhCN} button={{ autoInsertSpace: false }} theme={{ token: { motion: !reducedMotion } }}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <BatchProvider>{children}</BatchProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
