import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, Flex, List, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { downloadCatalogue, useImportCatalogue, type CatalogueProblem } from '../api/import.ts';

/**
 * The catalogue import of the console: the shop's JSON file, checked by the server exactly as the
 * command checks it, every problem shown with the field it is at (path → message).
 */
/** How many products an import cancels or removes, from its summary's 产品 line (…删除或取消 N）). */
export const cancelledIn = (summary: readonly string[]): number => Number(/^产品.*删除或取消 (\d+)）/.exec(summary.find((l) => l.startsWith('产品')) ?? '')?.[1] ?? 0);

export function CatalogueImportPage() {
  const { modal, message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [exporting, setExporting] = useState(false);
  // The catalogue as it is, to edit and import again (there was no way to get the file back once imported: walk).
  const exportNow = () => {
    setExporting(true);
    downloadCatalogue().catch((e: unknown) => void message.error(errorMessage(e))).finally(() => setExporting(false));
  };
  const [prune, setPrune] = useState(false);
  const run = useImportCatalogue();
  const go = (dryRun: boolean) => file && run.mutate({ file, dryRun, prune });
  const outcome = run.data;
  const cancels = outcome?.ok === true ? cancelledIn(outcome.summary) : 0;
  // Products left out of a complete catalogue stop being sold at once: asked first (a one-product file took the demo
  // shop's other eight offline with one click: LAN walk, 2026-11-30).
  const importNow = () => {
    if (!prune) return go(false);
    const checked = outcome?.ok === true && !outcome.imported && run.variables?.prune && run.variables.file === file;
    void modal.confirm({
      title: '导入并取消文件中没有的产品？',
      content: checked
        ? `检查结果：将取消 ${cancels} 个产品。被取消的产品客户不能再选择和下单（已下的订单不受影响）。`
        : '文件中没有的产品将被取消，客户不能再选择和下单（已下的订单不受影响）。建议先点“检查”，看将取消几个产品。',
      okText: '导入', okButtonProps: { danger: true }, cancelText: '取消',
      onOk: () => { go(false); },
    });
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={3} style={{ margin: 0 }}>产品目录导入</Typography.Title>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportNow}>导出当前目录</Button>
      </Flex>
      <Card size="small">
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            上传产品目录 JSON 文件（格式同 npm run import-catalogue）。可先“导出当前目录”，修改后再导入。文件中的模板须已在系统中（先前导入过）；新模板请用命令行带模板目录导入。
          </Typography.Paragraph>
          <Upload.Dragger accept=".json,application/json" maxCount={1} showUploadList={false}
            beforeUpload={(f) => {
              setFile(f);
              run.reset();
              return false;
            }}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p className="ant-upload-text">{file ? `已选择：${file.name}` : '点击或拖入目录 JSON 文件'}</p>
          </Upload.Dragger>
          <Checkbox checked={prune} onChange={(e) => setPrune(e.target.checked)}>文件中没有的产品标记为已取消（文件即完整目录）</Checkbox>
          <Flex gap={8}>
            <Button disabled={!file} loading={run.isPending && run.variables?.dryRun} onClick={() => go(true)}>检查</Button>
            <Button type="primary" disabled={!file} loading={run.isPending && !run.variables?.dryRun} onClick={importNow}>导入</Button>
          </Flex>
          {run.isError && <Alert type="error" showIcon title={errorMessage(run.error)} />}
          {outcome?.ok === true && (
            <Alert type={cancels > 0 ? 'warning' : 'success'} showIcon
              title={`${outcome.imported ? '已导入' : '检查通过，尚未导入'}${cancels > 0 ? `：${outcome.imported ? '已' : '将'}取消 ${cancels} 个产品` : ''}`}
              description={<List size="small" dataSource={outcome.summary} renderItem={(l) => <List.Item>{l}</List.Item>} />} />
          )}
          {outcome?.ok === false && (
            <Flex vertical gap={8}>
              <Alert type="error" showIcon title={outcome.message} />
              <Table<CatalogueProblem & { key: number }> size="small" data-testid="catalogue-problems" pagination={outcome.problems.length > 50 ? { pageSize: 50 } : false}
                dataSource={outcome.problems.map((p, key) => ({ ...p, key }))}
                columns={[
                  { title: '位置', dataIndex: 'path', key: 'path', width: 320, render: (v: string) => <Typography.Text code>{v || '（文件）'}</Typography.Text> },
                  { title: '产品/SKU', dataIndex: 'item', key: 'item', width: 200, render: (v: string | undefined) => v ?? '—' },
                  { title: '问题', dataIndex: 'message', key: 'message' },
                ]} />
            </Flex>
          )}
        </Flex>
      </Card>
    </Flex>
  );
}
