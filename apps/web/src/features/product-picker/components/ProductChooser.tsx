import { App } from 'antd';
import { useEffect, useState } from 'react';
import { MSG } from '@portal/contract/messages';
import { ProductDetailsDialog, type ProductChoice } from './ProductDetailsDialog.tsx';
import { ProductPickerDialog } from './ProductPickerDialog.tsx';

export interface ProductChooserProps {
  open: boolean;
  /** The product and SKU a row already has (重选产品): its options start chosen when that product is picked again. */
  initial?: { productId: number; propertyConfigId: number };
  onClose: () => void;
  onChosen: (choice: ProductChoice) => void;
  /** Which works the choice is for, shown in the picker's title. */
  note?: string | undefined;
}

/**
 * The whole choice: the picker (cards or SKU table), then the details of the picked product over
 * it. Cancelling the details goes back to the picker; confirming closes both.
 */
export function ProductChooser({ open, initial, onClose, onChosen, note }: ProductChooserProps) {
  const { message } = App.useApp();
  const [picked, setPicked] = useState<{ productId: number; configId?: number } | undefined>();

  useEffect(() => {
    if (!open) setPicked(undefined);
  }, [open]);

  return (
    <>
      <ProductPickerDialog
        open={open}
        onClose={onClose}
        note={note}
        onPickProduct={(p) => setPicked({ productId: p.id, configId: initial?.productId === p.id ? initial.propertyConfigId : undefined })}
        onPickSku={(row) => {
          if (!row.saleable) {
            void message.error(MSG.notSaleable);
            return;
          }
          setPicked({ productId: row.productId, configId: row.id });
        }}
      />
      <ProductDetailsDialog
        productId={open ? picked?.productId : undefined}
        initialConfigId={picked?.configId}
        onClose={() => setPicked(undefined)}
        onConfirm={(choice) => {
          setPicked(undefined);
          onChosen(choice);
        }}
      />
    </>
  );
}
