import { useLayoutEffect, useRef, useState } from 'react';
import { Tooltip } from 'antd';

/**
 * A list cell's text, shown whole in a tooltip on hover (docs/architecture.md "Lists fit their
 * box"). The tooltip is mounted on the cell's first hover, not with the list: a page of 20 rows
 * has some 160 text cells, and an antd Tooltip each (its theme hooks and its trigger) was the
 * largest part of the cold contract list's render (bench/README.md "First screen").
 */
export function CellText({ text }: { text: string }) {
  const [armed, setArmed] = useState(false);
  const left = useRef(false);
  const ref = useRef<HTMLSpanElement>(null);
  // The span under the pointer was just replaced by the tooltip's: hand that span the hover the
  // first one received (unless the pointer has left since), so the tooltip opens as it would
  // have, after its usual delay, and closes when the pointer leaves. React makes its mouseenter
  // of the pointer moving out of the span's parent into the span.
  useLayoutEffect(() => {
    const span = ref.current;
    if (!armed || !span?.parentElement || left.current) return;
    span.parentElement.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: span }));
  }, [armed]);
  if (!armed)
    return (
      <span
        onMouseEnter={() => {
          left.current = false;
          setArmed(true);
        }}
        onMouseLeave={() => {
          left.current = true;
        }}
      >
        {text}
      </span>
    );
  return (
    <Tooltip placement="topLeft" title={text}>
      <span ref={ref}>{text}</span>
    </Tooltip>
  );
}
