import type { ReactNode } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Auth } from '../permission/Auth';

/** The 新增 button of a list toolbar, gated by its button code. */
export function AddButton({
  code,
  onClick,
  children = '新增',
}: {
  code: string;
  onClick: () => void;
  children?: ReactNode;
}) {
  return (
    <Auth code={code}>
      <Button type="primary" icon={<PlusOutlined />} onClick={onClick}>
        {children}
      </Button>
    </Auth>
  );
}
