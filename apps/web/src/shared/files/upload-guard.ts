import { useMemo, useRef } from 'react';
import type { FormRule } from 'antd';
import { showWarning } from '../ui/feedback';

/** The refusal of a save pressed while one of its files is still on its way to the server. */
export function uploadingMessage(what: string): string {
  return `${what}正在上传，请等上传完成后再保存`;
}

export interface UploadGuard {
  /** Give to `<FileList onUploadingChange>`. */
  onUploadingChange: (uploading: boolean) => void;
  /** True when nothing is uploading; otherwise warns and answers false (for saves without a form). */
  settled: () => boolean;
  /** A form rule failing under the field while a file is uploading (for saves through a form). */
  rule: FormRule;
}

/**
 * An upload in progress is not yet in the attachments' value: a save sent then would go without
 * that file (refused when the file is required, silently missing when it is optional). Every save
 * of attachments asks this guard first (docs/architecture.md "Attachments").
 */
export function useUploadGuard(what = '附件'): UploadGuard {
  const uploading = useRef(false);
  return useMemo(
    () => ({
      onUploadingChange: (now) => {
        uploading.current = now;
      },
      settled: () => {
        if (!uploading.current) return true;
        showWarning(uploadingMessage(what));
        return false;
      },
      rule: {
        // Checked when a save validates the form, not on every change of the list.
        validateTrigger: [],
        validator: () =>
          uploading.current ? Promise.reject(new Error(uploadingMessage(what))) : Promise.resolve(),
      },
    }),
    [what],
  );
}
