import { act, render, screen } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { NoticesFirst, UnsettledNotice, useNoticeSettled } from './NoticesFirst';

function Notice({ settled, children }: { settled: boolean; children?: ReactNode }) {
  useNoticeSettled(settled);
  return <>{children}</>;
}

const body = () => screen.getByText('The cards').parentElement!;

describe('NoticesFirst', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps the body hidden while a notice has not settled, and shows it once all have', () => {
    let settle: (v: boolean) => void = () => undefined;
    function Slow() {
      const [settled, setSettled] = useState(false);
      settle = setSettled;
      return (
        <Notice settled={settled}>{settled ? 'Checkout cannot reach Ratesmith' : null}</Notice>
      );
    }
    render(
      <NoticesFirst
        notices={
          <>
            <Notice settled />
            <Slow />
          </>
        }
      >
        <p>The cards</p>
      </NoticesFirst>,
    );
    expect(body().style.visibility).toBe('hidden');
    expect(body().getAttribute('aria-busy')).toBe('true');
    act(() => settle(true));
    expect(screen.getByText('Checkout cannot reach Ratesmith')).toBeTruthy();
    expect(body().style.visibility).toBe('');
    expect(body().getAttribute('aria-busy')).toBe('false');
    // A notice loading again later (a retry) does not hide the body again.
    act(() => settle(false));
    expect(body().style.visibility).toBe('');
  });

  it('shows the body without notices at once', () => {
    render(
      <NoticesFirst notices={null}>
        <p>The cards</p>
      </NoticesFirst>,
    );
    expect(body().style.visibility).toBe('');
  });

  it('shows the body after maxWaitMs when a notice never settles (a lazy chunk still loading)', () => {
    jest.useFakeTimers();
    render(
      <NoticesFirst notices={<UnsettledNotice />} maxWaitMs={2500}>
        <p>The cards</p>
      </NoticesFirst>,
    );
    act(() => jest.advanceTimersByTime(2400));
    expect(body().style.visibility).toBe('hidden');
    act(() => jest.advanceTimersByTime(200));
    expect(body().style.visibility).toBe('');
  });
});
