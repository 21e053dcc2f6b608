import { Alert, Form, Modal, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../lib/http.ts';

/** A dialog around a form (the console's hubs and staff logins): validates, submits, shows the server's refusal in it, closes when done. */
export function FormDialog<T extends object>({ open, title, form, initialValues, pending, error, onSubmit, onClose, children }: {
  open: boolean; title: string; form: FormInstance<T>; initialValues?: Partial<T>; pending: boolean; error: unknown;
  onSubmit: (values: T) => void; onClose: () => void; children: ReactNode;
}) {
  // The server's refusal is about the values it was given: once they change it goes (登录名已存在 stayed beside
  // the next attempt's own message: LAN walk, 2026-11-30); the next refusal shows again.
  const [dismissed, setDismissed] = useState<unknown>(null);
  return (
    <Modal open={open} title={title} okText="保存" cancelText="取消" confirmLoading={pending} destroyOnHidden onCancel={onClose}
      onOk={() => void form.validateFields().then(onSubmit, () => undefined)}>
      <Form<T> form={form} layout="vertical" preserve={false} initialValues={initialValues} onValuesChange={() => setDismissed(error)}>
        {children}
      </Form>
      {error && error !== dismissed ? <Alert type="error" showIcon title={errorMessage(error)} /> : null}
    </Modal>
  );
}
