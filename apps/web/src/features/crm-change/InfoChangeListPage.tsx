import { useEffect } from 'react';
import { CHANGE_FIELD_LABELS, type ChangeField, type InfoChangeRow } from '@portal/contract/crm-change';
import type { ScreenProps } from '../../shared/ui/screen';
import { CHANGE_ROUTES, changeApi } from './api';
import { ChangeListFrame } from './ChangeFrames';
import { useDrafts } from './info-draft';
import { INFO_KIND } from './kinds';

/** 企业信息变更 list (crm-cor-info). */
export function InfoChangeListPage(_props: ScreenProps) {
  // Back on the list, unsaved edits of the editor's tabs are dropped: an editor opened from here
  // starts from the server's values.
  useEffect(() => useDrafts.setState({ drafts: {} }), []);
  return (
    <ChangeListFrame<InfoChangeRow>
      kind={INFO_KIND}
      testId="info-change-list"
      addLabel="新增变更"
      addTo={`${CHANGE_ROUTES.editor}/at-info`}
      columns={[
        {
          title: '变更项',
          key: 'changedFields',
          render: (_: unknown, r: InfoChangeRow) =>
            r.changedFields.map((f: ChangeField) => CHANGE_FIELD_LABELS[f]).join('、'),
        },
      ]}
      viewTo={(r) => `${CHANGE_ROUTES.view}/after?bizCode=${r.bizCode}`}
      editTo={(r) => `${CHANGE_ROUTES.editor}/at-info?bizCode=${r.bizCode}`}
      remove={changeApi.remove}
    />
  );
}
