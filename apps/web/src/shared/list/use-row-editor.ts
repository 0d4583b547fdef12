import { useState } from 'react';
import type { FormInstance } from 'antd';

type FormValues<V> = Parameters<FormInstance<V>['setFieldsValue']>[0];

/**
 * The state of a list's add / edit dialog: `open('new')` or `open(row)` resets the form (filled from
 * the row), `row` is the row edited (null when adding), `close()` hides the dialog.
 */
export function useRowEditor<R, V>(form: FormInstance<V>, toValues: (row: R) => FormValues<V>) {
  const [editing, setEditing] = useState<R | 'new' | null>(null);
  const open = (row: R | 'new') => {
    form.resetFields();
    if (row !== 'new') form.setFieldsValue(toValues(row));
    setEditing(row);
  };
  return {
    editing,
    row: editing === 'new' ? null : editing,
    open,
    close: () => setEditing(null),
  };
}
