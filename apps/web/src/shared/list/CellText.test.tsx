import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CellText } from './CellText';

const TEXT = '一家名字相当长的付款人有限责任公司';

describe('CellText', () => {
  it('shows the text without a tooltip mounted, and on the first hover the text whole in one', async () => {
    const { container } = render(<CellText text={TEXT} />);
    expect(container.innerHTML).toBe(`<span>${TEXT}</span>`);

    fireEvent.mouseEnter(container.firstElementChild!);

    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toBe(TEXT);
    expect(container.firstElementChild!.className).toBe('ant-tooltip-open');
  });

  it('closes the tooltip when the pointer leaves, and opens it again on the next hover', async () => {
    const { container } = render(<CellText text={TEXT} />);
    const cell = () => container.firstElementChild!;
    fireEvent.mouseEnter(cell());
    await waitFor(() => expect(cell().className).toBe('ant-tooltip-open'));

    fireEvent.mouseLeave(cell());
    await waitFor(() => expect(cell().className).toBe(''));

    fireEvent.mouseEnter(cell());
    await waitFor(() => expect(cell().className).toBe('ant-tooltip-open'));
  });
});
